import { Option, Schema } from "effect"
import type { Principal } from "../Principal.ts"

/**
 * The workspace a record belongs to, derived from the caller: an API key's account (the key is the
 * account today: plan and credits hang off it), a signed-in user's account, or on the enclave the
 * service JWT's `svc_workspace` claim, else its subject. The prefixes keep the three namespaces
 * apart, so a user id can never name a key's workspace.
 */
export const workspaceOf = (principal: Principal): Option.Option<string> => {
  switch (principal._tag) {
    case "ApiKey":
      return principal.status === "inactive" ? Option.none() : Option.some(`key:${principal.keyId}`)
    case "OAuthUser":
      return Option.some(`user:${principal.userId}`)
    case "Service":
      return Option.some(`svc:${principal.workspace ?? principal.subject}`)
    case "Anonymous":
      return Option.none()
  }
}

/** A workspace tool called without a usable credential (the catalogue hides them; this is the guard behind it). */
export class WorkspaceRequired extends Schema.TaggedError<WorkspaceRequired>()("WorkspaceRequired", {
  message: Schema.String
}) {
  static readonly status = 401
}

export const workspaceRequired = new WorkspaceRequired({
  message: "Workspace records need an API key, a signed-in user or a service token."
})

/** A record the caller's workspace does not hold (another workspace's records are indistinguishable from none). */
export class RecordNotFound extends Schema.TaggedError<RecordNotFound>()("RecordNotFound", {
  message: Schema.String
}) {
  static readonly status = 404
}

/** A cursor this list did not issue. */
export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", {
  message: Schema.String
}) {
  static readonly status = 400
}

export const invalidCursor = new InvalidCursor({
  message: "cursor: not one this list issued; pass next_cursor back verbatim or omit it for the first page"
})

/** The shared store could not be read or written; nothing was half-written (each write is one transaction). */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  message: Schema.String
}) {
  static readonly status = 503
}
