import type { Effect, Option } from "effect"

/** An entry of `resources/list`. */
export interface ResourceInfo {
  readonly uri: string
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly mimeType: string
}

/** An entry of `resources/templates/list` (RFC 6570 level-1 template). */
export interface TemplateInfo {
  readonly uriTemplate: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly mimeType: string
}

export interface TextContents {
  readonly uri: string
  readonly mimeType: string
  readonly text: string
}

/**
 * A family of resources: the ones it enumerates, the templates it answers, and how to read a URI.
 * `read` answers `None` for URIs the family does not serve or that name nothing, so the catalogue
 * can report "resource not found" instead of an empty result. `ttlMs` is the freshness of its
 * content, sent as the caching hint of lists and reads.
 */
export interface Provider<E, R> {
  readonly name: string
  readonly ttlMs: number
  readonly templates: ReadonlyArray<TemplateInfo>
  readonly list: Effect.Effect<ReadonlyArray<ResourceInfo>, E, R>
  readonly read: (uri: string) => Effect.Effect<Option.Option<TextContents>, E, R>
}

export type Any = Provider<any, any>

export type Requirements<P extends Any> = P extends Provider<any, infer R> ? R : never
