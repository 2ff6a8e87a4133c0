import { Context, Effect, Option } from "effect"

/**
 * Whether the response a request returns reached the connection. A paid document is charged only
 * when its last byte was handed to the socket, so the handler that renders it must learn what
 * happened after it returned. The transport provides this per request.
 */
export interface ResponseDeliveryShape {
  /** True once the response's last byte was handed to the operating system; false when the connection closed first. */
  readonly delivered: Effect.Effect<boolean>
}

export class ResponseDelivery extends Context.Tag("app/http/ResponseDelivery")<
  ResponseDelivery,
  ResponseDeliveryShape
>() {}

/**
 * The delivery of this request's response. A transport that does not report it (Deno's server, an
 * in-memory web handler) counts the hand-off of the response to the transport as delivery.
 */
export const responseDelivered: Effect.Effect<boolean> = Effect.flatMap(
  Effect.serviceOption(ResponseDelivery),
  Option.match({ onNone: () => Effect.succeed(true), onSome: (delivery) => delivery.delivered })
)
