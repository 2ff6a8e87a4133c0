import { Schema } from "effect"
import { problem } from "./Problem.ts"

const unauthenticated = problem({
  slug: "unauthenticated",
  status: 401,
  title: "Authentication required",
  description: "This deployment requires a service JWT as a bearer token on this path; the token was missing, " +
    "expired or not valid for this service."
})
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()(
  "Unauthenticated",
  unauthenticated.fields,
  unauthenticated.annotations
) {}

const notEntitled = problem({
  slug: "not-entitled",
  status: 403,
  title: "Not entitled",
  description: "The service token is valid but does not carry the entitlement this path needs; `entitlement` names it."
})
export class NotEntitled extends Schema.TaggedError<NotEntitled>()("NotEntitled", {
  ...notEntitled.fields,
  entitlement: Schema.String
}, notEntitled.annotations) {}
