import { Effect, Option } from "effect"
import { isSupportedPart } from "../../domain/Service.ts"
import { sectionPlainText } from "../../services/ecfr/SectionText.ts"
import { EcfrSource } from "../../services/EcfrSource.ts"
import type * as Resource from "../Resource.ts"

const scheme = "svc://ecfr/"

/**
 * One section of a mirrored part as text, `svc://ecfr/<part>/<part>.<number>` (e.g.
 * `svc://ecfr/740/740.1`): a template only, since the parts hold thousands of sections.
 */
export const ecfrResources: Resource.Provider<unknown, EcfrSource> = {
  name: "ecfr",
  // CFR data is edge-cached for an hour and refreshed daily
  ttlMs: 3_600_000,
  templates: [{
    uriTemplate: `${scheme}{part}/{section}`,
    name: "ecfr-section",
    title: "CFR section",
    description: "The current text of one section of a mirrored part (121, 732-774), e.g. svc://ecfr/740/740.1",
    mimeType: "text/plain"
  }],
  list: Effect.succeed([]),
  read: (uri) => {
    const match = /^svc:\/\/ecfr\/(\d{3})\/(\d{3}\.[0-9a-z-]{1,16})$/.exec(uri)
    const part = match === null ? NaN : Number(match[1])
    if (match === null || !isSupportedPart(part)) return Effect.succeed(Option.none())
    return Effect.flatMap(EcfrSource, (source) =>
      source.section(part, match[2]!).pipe(
        Effect.map((served) => Option.some({ uri, mimeType: "text/plain", text: sectionPlainText(served.value) })),
        // a section id the part does not have is "no such resource"; an unreachable eCFR is an error
        Effect.catchTag("InvalidRequest", () => Effect.succeed(Option.none()))
      ))
  }
}
