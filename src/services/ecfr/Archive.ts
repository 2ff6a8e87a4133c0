import { Effect, Schema } from "effect"
import type { CfrTreeNode, SectionVersion } from "../../domain/Cfr.ts"
import { type UpstreamClient, UpstreamError } from "../Upstream.ts"
import { findPartNode, latestVersions, StructureNode, TitlesResponse, VersionsResponse } from "./Wire.ts"

/**
 * The eCFR versioner documents a snapshot is built from. The live implementation reads the eCFR
 * API; `directoryArchive` reads the same documents saved on disk (offline seeding).
 */
export interface EcfrArchive {
  readonly name: string
  /** Latest issue date (YYYY-MM-DD) of each title eCFR lists with one. */
  readonly issueDates: Effect.Effect<ReadonlyMap<number, string>, UpstreamError>
  /** The part's node (with its subtree) from `structure/{date}/title-N.json`. */
  readonly structure: (title: number, date: string, part: number) => Effect.Effect<CfrTreeNode, UpstreamError>
  /** The part's XML from `full/{date}/title-N.xml?part=N`. */
  readonly partXml: (title: number, date: string, part: number) => Effect.Effect<string, UpstreamError>
  /** The latest version of each section, from `versions/title-N.json?part=N`. */
  readonly versions: (title: number, part: number) => Effect.Effect<ReadonlyArray<SectionVersion>, UpstreamError>
}

export const decodeFailure = (upstream: string, detail: string) =>
  new UpstreamError({ upstream, reason: "decode", detail })

export const issueDatesOf = (titles: typeof TitlesResponse.Type): ReadonlyMap<number, string> =>
  new Map(titles.titles.flatMap((t) => t.latest_issue_date ? [[t.number, t.latest_issue_date] as const] : []))

export const partNodeOf = (upstream: string, root: typeof StructureNode.Type, part: number) => {
  const node = findPartNode(root, part)
  return node === undefined
    ? Effect.fail(decodeFailure(upstream, `the structure response has no node for part ${part}`))
    : Effect.succeed(node)
}

const versioner = "/api/versioner/v1"

/** The live eCFR API behind the shared upstream policy (timeouts, retries, circuit breaker). */
export const httpArchive = (client: UpstreamClient): EcfrArchive => ({
  name: client.name,
  issueDates: client.getJson(`${versioner}/titles.json`, TitlesResponse).pipe(Effect.map(issueDatesOf)),
  structure: (title, date, part) =>
    client.getJson(`${versioner}/structure/${date}/title-${title}.json`, StructureNode, {
      params: { part },
      timeout: "30 seconds"
    }).pipe(Effect.flatMap((root) => partNodeOf(client.name, root, part))),
  partXml: (title, date, part) =>
    client.getText(`${versioner}/full/${date}/title-${title}.xml`, {
      params: { part },
      headers: { accept: "application/xml" },
      timeout: "60 seconds"
    }),
  versions: (title, part) =>
    client.getJson(`${versioner}/versions/title-${title}.json`, VersionsResponse, {
      params: { part },
      timeout: "30 seconds"
    }).pipe(Effect.map((response) => latestVersions(response, part)))
})

export const decodeJsonText = <A, I>(upstream: string, what: string, text: string, schema: Schema.Schema<A, I>) =>
  Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: () => decodeFailure(upstream, `${what} is not JSON`)
  }).pipe(
    Effect.flatMap((json) =>
      Schema.decodeUnknown(schema)(json).pipe(
        Effect.mapError(() => decodeFailure(upstream, `${what} has an unexpected shape`))
      )
    )
  )
