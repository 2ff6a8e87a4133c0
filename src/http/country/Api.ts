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
          "Burma). With `eccn` (best with its paragraph, `6A003.b.4.b`), `eccnCheck` answers each control row of " +
          "the entry: `license_required`, `not_for_this_paragraph`, `depends` (with the entry's conditions quoted), " +
          "`no_x_in_column`, `stated_in_text` or `see_part_746`; the summary counts only rows that reach the " +
          "paragraph. An unknown paragraph is a 404 unless the entry's item text is unavailable."
      )
  )
  .annotate(IndexGroup, "ecfr")
  .annotate(OpenApi.Title, "Country Chart")
{}
