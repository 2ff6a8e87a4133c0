import { Effect, Option, Schema } from "effect"
import { CountryChartAnswer } from "../../domain/Country.ts"
import { EccnParameter, parseEccnQuery } from "../../domain/Eccn.ts"
import { renderEccnText } from "../../domain/EccnText.ts"
import { CclIndex } from "../../services/CclIndex.ts"
import { CountryChart } from "../../services/CountryChart.ts"
import type * as Resource from "../Resource.ts"

const eccnScheme = "svc://eccn/"
const countryScheme = "svc://country-chart/"

/** Data answers are edge-cached for an hour; the eCFR behind them is refreshed daily. */
const ttlMs = 3_600_000

const decodedTail = (uri: string, scheme: string): string | undefined => {
  if (!uri.startsWith(scheme)) return undefined
  try {
    const tail = decodeURIComponent(uri.slice(scheme.length))
    return tail.length > 0 && tail.length <= 100 ? tail : undefined
  } catch {
    return undefined
  }
}

const isEccnParameter = Schema.is(EccnParameter)

/** `svc://eccn/<eccn>`: one CCL entry or paragraph as the text `GET /api/eccn/{eccn}` serves. */
export const eccnResources: Resource.Provider<unknown, CclIndex> = {
  name: "eccn",
  ttlMs,
  templates: [{
    uriTemplate: `${eccnScheme}{eccn}`,
    name: "eccn",
    title: "Commerce Control List entry",
    description: "One ECCN or paragraph as text, e.g. svc://eccn/3A001 or svc://eccn/5A002.a.1",
    mimeType: "text/plain"
  }],
  list: Effect.succeed([]),
  read: (uri) => {
    const eccn = decodedTail(uri, eccnScheme)
    const query = eccn !== undefined && isEccnParameter(eccn) ? parseEccnQuery(eccn) : undefined
    if (query === undefined) return Effect.succeed(Option.none())
    return Effect.flatMap(CclIndex, (ccl) =>
      ccl.lookup(query).pipe(
        Effect.map((answer) => Option.some({ uri, mimeType: "text/plain", text: renderEccnText(answer) })),
        Effect.catchTag("EccnNotFound", () => Effect.succeed(Option.none()))
      ))
  }
}

const encodeAnswer = Schema.encodeSync(CountryChartAnswer)

/** `svc://country-chart/<country>`: a destination's Country Chart row and groups, as `/api/country-chart` answers. */
export const countryChartResources: Resource.Provider<unknown, CountryChart> = {
  name: "country-chart",
  ttlMs,
  templates: [{
    uriTemplate: `${countryScheme}{country}`,
    name: "country-chart-row",
    title: "Country Chart row",
    description: "A destination's Country Chart row, footnotes and Country Groups as JSON; the country by name or " +
      "ISO code, URI-encoded, e.g. svc://country-chart/DE or svc://country-chart/United%20Kingdom",
    mimeType: "application/json"
  }],
  list: Effect.succeed([]),
  read: (uri) => {
    const country = decodedTail(uri, countryScheme)
    if (country === undefined || country.length < 2) return Effect.succeed(Option.none())
    return Effect.flatMap(CountryChart, (chart) =>
      chart.lookup({ country }).pipe(
        Effect.map((answer) =>
          Option.some({ uri, mimeType: "application/json", text: JSON.stringify(encodeAnswer(answer)) })
        ),
        Effect.catchTag("CountryNotFound", () => Effect.succeed(Option.none()))
      ))
  }
}
