import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CountryChartAnswer, CountryChartParams, CountryNotFound } from "../../domain/Country.ts"
import { EccnNotFound } from "../../domain/Eccn.ts"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { IndexGroup } from "../Annotations.ts"

export class CountryChartGroup extends HttpApiGroup.make("countryChart")
  .add(
    HttpApiEndpoint.get("countryChart", "/api/country-chart")
      .setUrlParams(CountryChartParams)
      .addSuccess(CountryChartAnswer)
      .addError(CountryNotFound)
      .addError(EccnNotFound)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "Commerce Country Chart row, Country Groups and part 746 notes for a country")
      .annotate(
        OpenApi.Description,
        "The Country Chart row of a destination (Supplement No. 1 to 15 CFR part 738: the 16 reason-for-control " +
          "columns CB1…AT2 with X marks and the row's footnotes; embargoed destinations carry a pointer to part 746 " +
          "instead of marks), its Country Group memberships (Supplement No. 1 to part 740) and the part 746 sections " +
          "that name it. `country` accepts names, ISO 3166 alpha-2/alpha-3 codes and common names (UK, South Korea, " +
          "Burma). With `eccn`, `eccnCheck` says for each control row of the entry which cited columns have an X " +
          "for the destination (license required for that reason) and which rows state their destinations in text."
      )
  )
  .annotate(IndexGroup, "ecfr")
  .annotate(OpenApi.Title, "Country Chart")
{}
