import { Context, type Effect } from "effect"
import type {
  CacheReport,
  CfrSection,
  CfrTreeNode,
  PartSearchResponse,
  SearchRequest,
  SectionsPayload,
  TitleSearchResponse,
  VersionsPayload
} from "../domain/Cfr.ts"
import type { InvalidRequest, UpstreamUnavailable } from "../domain/Problem.ts"
import type { CfrTitleNumber, SupportedPartNumber } from "../domain/Service.ts"

/** A value served from the eCFR snapshot store, with what a caller needs to label it. */
export interface Served<A> {
  readonly value: A
  /** eCFR issue date the content comes from (YYYY-MM-DD). */
  readonly issueDate: string
  /** ISO timestamp of the upstream fetch that produced it. */
  readonly fetchedAt: string
  /** True when the upstream could not be reached and an older snapshot answers. */
  readonly stale: boolean
}

/**
 * The eCFR mirror of the 12 supported parts. This file is the contract other services build on
 * (CclIndex and CountryChart read `partXml`); the eCFR implementation extends it with the
 * structure, sections, text, versions and search operations behind the regulatory data endpoints.
 * Values of one snapshot are the same objects on every call until the part changes, so callers may
 * memoize work on them by identity.
 */
export interface EcfrSourceShape {
  /** The whole part as eCFR XML (`full/{date}/title-N.xml?part=N`), from the snapshot store. */
  readonly partXml: (part: SupportedPartNumber) => Effect.Effect<Served<string>, UpstreamUnavailable>
  /** The part's node of the eCFR structure tree, with its subparts, sections and supplements. */
  readonly structure: (part: SupportedPartNumber) => Effect.Effect<Served<CfrTreeNode>, UpstreamUnavailable>
  /** Every section and supplement of the part as clean text. */
  readonly sections: (part: SupportedPartNumber) => Effect.Effect<Served<SectionsPayload>, UpstreamUnavailable>
  /**
   * One section by its `<part>.<number>` identifier (e.g. `740.1`); InvalidRequest when the id is
   * not of that form or names no section of the part. With `appendices`, also a supplement or
   * appendix by the identifier the structure lists (`Supplement No. 4 to Part 774`) or a short form
   * (`Supp. 4`): what MCP agents read; SPEC's REST text endpoints stay `<part>.<number>` only.
   */
  readonly section: (
    part: SupportedPartNumber,
    section: string,
    options?: { readonly appendices?: boolean }
  ) => Effect.Effect<Served<CfrSection>, InvalidRequest | UpstreamUnavailable>
  /** The latest amendment of each section and supplement. */
  readonly versions: (part: SupportedPartNumber) => Effect.Effect<Served<VersionsPayload>, UpstreamUnavailable>
  /** eCFR full-text search within the part (current version only); local index when eCFR search is down. */
  readonly searchPart: (
    part: SupportedPartNumber,
    request: SearchRequest
  ) => Effect.Effect<PartSearchResponse, InvalidRequest | UpstreamUnavailable>
  /** eCFR full-text search across a title (current version only); local index when eCFR search is down. */
  readonly searchTitle: (
    title: CfrTitleNumber,
    request: SearchRequest
  ) => Effect.Effect<TitleSearchResponse, InvalidRequest | UpstreamUnavailable>
  /** Per-part snapshot state, without contacting the upstream. */
  readonly cacheReport: Effect.Effect<CacheReport>
}

export class EcfrSource extends Context.Tag("app/EcfrSource")<EcfrSource, EcfrSourceShape>() {}
