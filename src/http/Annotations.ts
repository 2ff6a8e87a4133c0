import { Context } from "effect"
import type { EndpointGroup } from "../domain/Service.ts"

/** The index directory group an HttpApi group (or endpoint) is listed under. */
export class IndexGroup extends Context.Tag("app/http/IndexGroup")<IndexGroup, EndpointGroup>() {}

/** Marks enterprise groups: hidden from anonymous callers in the OpenAPI document. */
export class Enterprise extends Context.Tag("app/http/Enterprise")<Enterprise, boolean>() {}

/** Cache-Control policy name of a group; the caching middleware maps it to header values. */
export class CachePolicy extends Context.Tag("app/http/CachePolicy")<CachePolicy, CachePolicyName>() {}

export type CachePolicyName = "data" | "skills" | "screening" | "no-store"
