import type { HttpServerError } from "@effect/platform"
import { Effect } from "effect"
import * as AppConfig from "../services/AppConfig.ts"
import { CommandFailed } from "./Command.ts"

/** Where the operator commands on keys and accounts work, and why the embedded store needs the service stopped. */
export const storeCommandNote =
  "Works on the store (DATABASE_URL, else the embedded database under DATA_DIR, which a running\n" +
  "service holds open: stop it first, or share a PostgreSQL server)."

/**
 * The configuration, checked up front: every invalid variable is reported at once, each with its
 * value (secrets hidden) and what to set instead.
 */
export const loadConfig: Effect.Effect<AppConfig.AppConfigShape, CommandFailed> = AppConfig.read.pipe(
  Effect.mapError((error) =>
    new CommandFailed({
      message: [
        "the configuration is invalid:",
        ...AppConfig.describeError(error, process.env).map((line) => `  ${line}`),
        "Every variable is described in docs/configuration.md."
      ].join("\n")
    })
  )
)

const causeCode = (cause: unknown) =>
  typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined

/** Why the listener could not start, naming the address and what to change. */
export const describeServeError = (
  error: HttpServerError.ServeError,
  config: Pick<AppConfig.AppConfigShape, "host" | "port">
) => {
  const address = `${config.host}:${config.port}`
  switch (causeCode(error.cause)) {
    case "EADDRINUSE":
      return `PORT=${config.port}: ${address} is already in use by another process; stop it or set PORT to a free port`
    case "EACCES":
      return `PORT=${config.port}: not allowed to listen on ${address}; use a port above 1023 or run with the right to bind it`
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `HOST=${config.host}: not an address of this machine; use 127.0.0.1, 0.0.0.0 or one of its addresses`
    default:
      return `cannot listen on ${address}: ${String(error.cause)}`
  }
}
