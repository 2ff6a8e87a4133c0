import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { type CfrSection, CfrTreeNode, SectionsPayload, UnsupportedPart, VersionsPayload } from "../../domain/Cfr.ts"
import { isSupportedPart, type SupportedPartNumber, supportedParts } from "../../domain/Service.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { refreshSchedule } from "../../services/ecfr/Live.ts"
import { sectionFragment, sectionPlainText } from "../../services/ecfr/SectionText.ts"
import { EcfrSource, type Served } from "../../services/EcfrSource.ts"
import { Api } from "../Api.ts"
import { weakEtag } from "../middleware/Caching.ts"

const encoder = new TextEncoder()

interface Prebuilt {
  readonly body: Uint8Array
  readonly etag: string
}

/**
 * One encoding of served values, built once per value: snapshot values are the same objects until
 * their part changes, so the bytes (and validator) of a large part are computed once per version.
 */
const representation = <A extends object>(contentType: string, render: (value: A) => string) => {
  const built = new WeakMap<A, Prebuilt>()
  return (served: Served<A>): HttpServerResponse.HttpServerResponse => {
    let prebuilt = built.get(served.value)
    if (prebuilt === undefined) {
      const body = encoder.encode(render(served.value))
      prebuilt = { body, etag: weakEtag(body) }
      built.set(served.value, prebuilt)
    }
    const headers: Record<string, string> = { etag: prebuilt.etag, "x-ecfr-issue-date": served.issueDate }
    if (served.stale) headers["x-data-stale"] = `true; fetched-at=${served.fetchedAt}; issue-date=${served.issueDate}`
    return HttpServerResponse.uint8Array(prebuilt.body, { contentType, headers })
  }
}

const json = <A extends object, I>(schema: Schema.Schema<A, I>) => {
  const encode = Schema.encodeSync(schema)
  return representation<A>("application/json", (value) => JSON.stringify(encode(value)))
}

const titleOf = (part: number) => supportedParts.find((p) => p.part === part)!.title

const partOf = (value: string): Effect.Effect<SupportedPartNumber, UnsupportedPart> => {
  const n = /^[1-9]\d{0,3}$/.test(value) ? Number(value) : NaN
  return isSupportedPart(n) ? Effect.succeed(n) : Effect.fail(UnsupportedPart.of(value))
}

export const EcfrHttpLive = HttpApiBuilder.group(Api, "ecfr", (handlers) =>
  Effect.gen(function*() {
    const source = yield* EcfrSource
    const config = yield* AppConfig
    const structureJson = json(CfrTreeNode)
    const sectionsJson = json(SectionsPayload)
    const versionsJson = json(VersionsPayload)
    // text endpoints serve `<part>.<number>` sections only, so the identifier names the part
    const html = representation("text/html; charset=utf-8", (section: CfrSection) =>
      sectionFragment(section, titleOf(Number(section.identifier.split(".")[0]))))
    const plain = representation("text/plain; charset=utf-8", sectionPlainText)
    const supported = supportedParts.map((p) => ({
      ...p,
      endpoint: `/api/ecfr/${p.part}`,
      search: `/api/ecfr/${p.part}/search`
    }))

    return handlers
      .handle("meta", () =>
        Effect.map(source.cacheReport, (cache) => ({
          supportedParts: supported,
          cache,
          refreshSchedule,
          source: config.ecfrBaseUrl
        })))
      .handle("part", ({ path }) =>
        partOf(path.part).pipe(Effect.flatMap(source.structure), Effect.map(structureJson)))
      .handle(
        "sections",
        ({ path }) => partOf(path.part).pipe(Effect.flatMap(source.sections), Effect.map(sectionsJson))
      )
      .handle(
        "versions",
        ({ path }) => partOf(path.part).pipe(Effect.flatMap(source.versions), Effect.map(versionsJson))
      )
      .handle(
        "text",
        ({ path }) =>
          partOf(path.part).pipe(Effect.flatMap((part) => source.section(part, path.section)), Effect.map(html))
      )
      .handle(
        "plain",
        ({ path }) =>
          partOf(path.part).pipe(Effect.flatMap((part) => source.section(part, path.section)), Effect.map(plain))
      )
      .handle("searchPart", ({ path, urlParams }) =>
        partOf(path.part).pipe(Effect.flatMap((part) =>
          source.searchPart(part, {
            q: urlParams.q,
            page: urlParams.page,
            perPage: urlParams.per_page,
            cursor: urlParams.cursor
          })
        )))
      .handle("searchTitle", ({ urlParams }) =>
        source.searchTitle(urlParams.title === "22" ? 22 : 15, {
          q: urlParams.q,
          page: urlParams.page,
          perPage: urlParams.per_page,
          cursor: urlParams.cursor
        }))
  }))
