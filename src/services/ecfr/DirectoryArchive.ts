import { Effect, type Schema } from "effect"
import { readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { supportedParts } from "../../domain/Service.ts"
import { UpstreamError } from "../Upstream.ts"
import { decodeJsonText, type EcfrArchive, issueDatesOf, partNodeOf } from "./Archive.ts"
import { latestVersions, StructureNode, TitlesResponse, VersionsResponse } from "./Wire.ts"

/**
 * Saved eCFR API responses in a directory, for seeding a machine without network access
 * (`npm run sync -- --from <dir>`) and for fixtures. Layout (file ← the request it saves):
 *
 *     titles.json                         ← /api/versioner/v1/titles.json
 *     title-15/structure.json             ← /api/versioner/v1/structure/{date}/title-15.json
 *     title-15/part-740.structure.json    ← the same with ?part=740 (optional; preferred when present)
 *     title-15/part-740.xml               ← /api/versioner/v1/full/{date}/title-15.xml?part=740
 *     title-15/part-740.versions.json     ← /api/versioner/v1/versions/title-15.json?part=740
 *
 * `{date}` is the title's `latest_issue_date` in the saved titles.json.
 */
export const directoryArchive = (directory: string): EcfrArchive => {
  const name = "ecfr-directory"
  const read = (relative: string) =>
    Effect.tryPromise({
      try: () => readFile(join(directory, relative), "utf8"),
      catch: () => new UpstreamError({ upstream: name, reason: "unreachable", detail: `${relative} is missing` })
    })
  const readJson = <A, I>(relative: string, schema: Schema.Schema<A, I>) =>
    Effect.flatMap(read(relative), (text) => decodeJsonText(name, relative, text, schema))
  return {
    name,
    issueDates: readJson("titles.json", TitlesResponse).pipe(Effect.map(issueDatesOf)),
    structure: (title, _date, part) =>
      readJson(`title-${title}/part-${part}.structure.json`, StructureNode).pipe(
        Effect.orElse(() => readJson(`title-${title}/structure.json`, StructureNode)),
        Effect.flatMap((root) => partNodeOf(name, root, part))
      ),
    partXml: (title, _date, part) => read(`title-${title}/part-${part}.xml`),
    versions: (title, part) =>
      readJson(`title-${title}/part-${part}.versions.json`, VersionsResponse).pipe(
        Effect.map((response) => latestVersions(response, part))
      )
  }
}

/**
 * The supported parts whose XML the directory holds, after checking that it is a directory with a
 * `titles.json`: one clear failure instead of one per part.
 */
export const savedParts = (directory: string): Effect.Effect<ReadonlyArray<number>, string> =>
  Effect.tryPromise({
    try: async () => {
      const info = await stat(directory).catch(() => undefined)
      if (info === undefined) throw `${directory}: no such directory`
      if (!info.isDirectory()) throw `${directory}: not a directory`
      if (await stat(join(directory, "titles.json")).catch(() => undefined) === undefined) {
        throw `${directory}: no titles.json (the saved /api/versioner/v1/titles.json response)`
      }
      const present = await Promise.all(supportedParts.map(async ({ part, title }) =>
        await stat(join(directory, `title-${title}`, `part-${part}.xml`)).catch(() => undefined) === undefined
          ? []
          : [part]
      ))
      return present.flat()
    },
    catch: (error) =>
      typeof error === "string" ? error : `${directory}: ${String(error)}`
  })
