import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { type CfrSection, CfrTreeNode, SectionsPayload, UnsupportedPart, VersionsPayload } from "../../domain/Cfr.ts"
import { isSupportedPart, type SupportedPartNumber, supportedParts } from "../../domain/Service.ts"
import { AppConfig } from "../../services/AppConfig.ts"
import { metaPayload } from "../../services/ecfr/Meta.ts"
import { sectionFragment, sectionPlainText } from "../../services/ecfr/SectionText.ts"
import { EcfrSource } from "../../services/EcfrSource.ts"
import { Api } from "../Api.ts"
import { json, representation } from "./Prebuilt.ts"

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
    const meta = Effect.provideService(Effect.provideService(metaPayload, AppConfig, config), EcfrSource, source)

    return handlers
      .handle("meta", () =>
        meta)
      .handle("part", ({ path, request }) =>
        partOf(path.part).pipe(
          Effect.flatMap(source.structure),
          Effect.map((served) => structureJson(served, request.headers["accept-encoding"]))
        ))
      .handle("sections", ({ path, request }) =>
        partOf(path.part).pipe(
          Effect.flatMap(source.sections),
          Effect.map((served) => sectionsJson(served, request.headers["accept-encoding"]))
        ))
      .handle("versions", ({ path, request }) =>
        partOf(path.part).pipe(
          Effect.flatMap(source.versions),
          Effect.map((served) => versionsJson(served, request.headers["accept-encoding"]))
        ))
      .handle("text", ({ path, request }) =>
        partOf(path.part).pipe(
          Effect.flatMap((part) => source.section(part, path.section)),
          Effect.map((served) => html(served, request.headers["accept-encoding"]))
        ))
      .handle("plain", ({ path, request }) =>
        partOf(path.part).pipe(
          Effect.flatMap((part) => source.section(part, path.section)),
          Effect.map((served) => plain(served, request.headers["accept-encoding"]))
        ))
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
