import { Context, type Effect } from "effect"
import type { UpstreamUnavailable } from "../domain/Problem.ts"
import type { SupportedPartNumber } from "../domain/Service.ts"

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
 */
export interface EcfrSourceShape {
  /** The whole part as eCFR XML (`full/{date}/title-N.xml?part=N`), from the snapshot store. */
  readonly partXml: (part: SupportedPartNumber) => Effect.Effect<Served<string>, UpstreamUnavailable>
}

export class EcfrSource extends Context.Tag("app/EcfrSource")<EcfrSource, EcfrSourceShape>() {}
