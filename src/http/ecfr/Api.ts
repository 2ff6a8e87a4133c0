import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CfrTreeNode,
  MetaPayload,
  PartSearchResponse,
  SearchDefaults,
  SearchParams,
  SectionsPayload,
  TitleSearchResponse,
  UnsupportedPart,
  VersionsPayload
} from "../../domain/Cfr.ts"
import { sectionHtml, sectionPlain } from "../../domain/examples/Cfr.ts"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { supportedPartNumbers } from "../../domain/Service.ts"
import { CachePolicy, IndexGroup } from "../Annotations.ts"

/** Validated by the handler, so an unsupported part answers with the list of supported ones. */
const PartParam = Schema.String.annotations({
  description: "CFR part number",
  jsonSchema: { type: "integer", enum: supportedPartNumbers }
})

const SectionParam = Schema.String.annotations({
  description: "Section identifier `<part>.<number>`, e.g. `740.1`"
})

const PartPath = Schema.Struct({ part: PartParam })
const SectionPath = Schema.Struct({ part: PartParam, section: SectionParam })

const searchParams = {
  q: SearchParams.q,
  page: Schema.optionalWith(SearchParams.page, { default: () => SearchDefaults.page }),
  per_page: Schema.optionalWith(SearchParams.per_page, { default: () => SearchDefaults.perPage }),
  cursor: Schema.optional(SearchParams.cursor)
}

const staleNote = "When eCFR cannot be reached and a stored snapshot answers, the response carries " +
  "`X-Data-Stale: true; fetched-at=<ISO time>; issue-date=<YYYY-MM-DD>`. Every response names the eCFR issue " +
  "it comes from in `X-Ecfr-Issue-Date`. 503 only when nothing is stored for the part."

const Html = HttpApiSchema.Text({ contentType: "text/html" }).annotations({
  description: "The section (heading and body) as a sanitized HTML fragment: a fixed set of tags, no scripts, " +
    "no links, no inline styles",
  examples: [sectionHtml]
})
const Plain = HttpApiSchema.Text({ contentType: "text/plain" }).annotations({
  description: "The section as readable text: heading, blank line, paragraphs separated by blank lines, tables as " +
    "`|`-separated rows, superscripts (footnote marks, exponents) as `^x`",
  examples: [sectionPlain]
})

export class EcfrGroup extends HttpApiGroup.make("ecfr", { topLevel: true })
  .add(
    HttpApiEndpoint.get("meta", "/api/ecfr/meta")
      .addSuccess(MetaPayload)
      .annotate(OpenApi.Summary, "supported parts, per-part snapshot state and the refresh schedule")
      .annotate(CachePolicy, "no-store")
  )
  .add(
    HttpApiEndpoint.get("searchTitle", "/api/ecfr/search")
      .setUrlParams(Schema.Struct({
        ...searchParams,
        title: Schema.optionalWith(Schema.Literal("15", "22").annotations({ description: "CFR title (default 15)" }), {
          default: () => "15" as const
        })
      }))
      .addSuccess(TitleSearchResponse)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "full-text search of a CFR title (15 or 22), current version")
      .annotate(
        OpenApi.Description,
        "Proxies eCFR search; when it is unavailable, answers from the local index " +
          "of the stored parts of the title (`meta.engine` = `local-index`)."
      )
  )
  .add(
    HttpApiEndpoint.get("part", "/api/ecfr/:part")
      .setPath(PartPath)
      .addSuccess(CfrTreeNode)
      .addError(UnsupportedPart)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "structure of a supported part (subparts, sections, supplements)")
      .annotate(OpenApi.Description, staleNote)
  )
  .add(
    HttpApiEndpoint.get("sections", "/api/ecfr/:part/sections")
      .setPath(PartPath)
      .addSuccess(SectionsPayload)
      .addError(UnsupportedPart)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "every section and supplement of a part as clean text")
      .annotate(OpenApi.Description, staleNote)
  )
  .add(
    HttpApiEndpoint.get("searchPart", "/api/ecfr/:part/search")
      .setPath(PartPath)
      .setUrlParams(Schema.Struct(searchParams))
      .addSuccess(PartSearchResponse)
      .addError(UnsupportedPart)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "full-text search within a part, current version, cursor pagination")
      .annotate(
        OpenApi.Description,
        "Proxies eCFR search; when it is unavailable, answers from the local index " +
          "of the stored snapshot (`meta.engine` = `local-index`, with a `meta.notice`)."
      )
  )
  .add(
    HttpApiEndpoint.get("text", "/api/ecfr/:part/text/:section")
      .setPath(SectionPath)
      .addSuccess(Html)
      .addError(UnsupportedPart)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "one section as a sanitized HTML fragment")
      .annotate(OpenApi.Description, staleNote)
  )
  .add(
    HttpApiEndpoint.get("plain", "/api/ecfr/:part/plain/:section")
      .setPath(SectionPath)
      .addSuccess(Plain)
      .addError(UnsupportedPart)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "one section as clean readable text")
      .annotate(OpenApi.Description, staleNote)
  )
  .add(
    HttpApiEndpoint.get("versions", "/api/ecfr/:part/versions")
      .setPath(PartPath)
      .addSuccess(VersionsPayload)
      .addError(UnsupportedPart)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "latest amendment date of each section and supplement of a part")
      .annotate(OpenApi.Description, staleNote)
  )
  .annotate(IndexGroup, "ecfr")
  .annotate(OpenApi.Title, "Regulatory data (eCFR)")
{}
