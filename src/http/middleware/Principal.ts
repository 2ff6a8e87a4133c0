import { HttpApiMiddleware } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { CurrentPrincipal } from "../../domain/Principal.ts"

/**
 * The principal the global middleware resolved for this request, for code whose type cannot ask
 * for `CurrentPrincipal` (HttpApi middlewares run with the router's request context only). Its
 * absence is a wiring defect, never a reason to treat the caller as anyone in particular.
 */
export const requestPrincipal = Effect.flatMap(
  Effect.serviceOption(CurrentPrincipal),
  Option.match({
    onNone: () => Effect.dieMessage("CurrentPrincipal is missing: the global middleware provides it"),
    onSome: Effect.succeed
  })
)

/** Gives HttpApi handlers of a group the request's `CurrentPrincipal` (no second resolution). */
export class PrincipalMiddleware extends HttpApiMiddleware.Tag<PrincipalMiddleware>()("app/http/PrincipalMiddleware", {
  provides: CurrentPrincipal
}) {}

export const PrincipalMiddlewareLive = Layer.succeed(PrincipalMiddleware, requestPrincipal)
