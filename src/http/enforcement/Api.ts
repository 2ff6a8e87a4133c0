import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  EnforcementArchiveStats,
  EnforcementContentUnavailable,
  EnforcementDocumentList,
  EnforcementDocumentNotFound,
  EnforcementDocumentPath,
  EnforcementDocumentRecord,
  EnforcementDocumentsParams,
  EnforcementFeed,
  EnforcementFeedParams
} from "../../domain/Enforcement.ts"
import { documentText } from "../../domain/examples/Enforcement.ts"
import { IndexGroup } from "../Annotations.ts"

const Markdown = HttpApiSchema.Text({ contentType: "text/markdown" }).annotations({
  description: "The document's text as extracted from its PDF: paragraphs, larger type as `##` headings, and " +
    "`<!-- page N -->` before each page after the first. Extraction can garble tables and scans: check figures " +
    "against the PDF.",
  examples: [documentText]
})

const Pdf = HttpApiSchema.Uint8Array({ contentType: "application/pdf" }).annotations({
  description: "The stored PDF"
})

export class EnforcementGroup extends HttpApiGroup.make("enforcement")
  .add(
    HttpApiEndpoint.get("feed", "/api/enforcement")
      .setUrlParams(EnforcementFeedParams)
      .addSuccess(EnforcementFeed)
      .annotate(OpenApi.Summary, "live feed of BIS, DDTC and DOJ enforcement actions, newest first")
      .annotate(
        OpenApi.Description,
        "Actions from BIS and State Department (DDTC) notices in the Federal Register and from DOJ press " +
          "releases, normalized to one record shape, cached about 6 hours per source. Sources fail independently: " +
          "`sources` gives each one's status, coverage window and error; a failed source serves its last good " +
          "answer (`stale`) or nothing (`error`), never a 5xx. A degraded answer carries `Cache-Control: no-store`. " +
          "Party and statute values are read from titles and texts only when stated; otherwise null or empty."
      )
  )
  .add(
    HttpApiEndpoint.get("documents", "/api/enforcement/docs")
      .setUrlParams(EnforcementDocumentsParams)
      .addSuccess(Schema.Union(EnforcementDocumentList, EnforcementArchiveStats))
      .annotate(OpenApi.Summary, "search the enforcement document archive (or `stats=1` for its coverage)")
      .annotate(
        OpenApi.Description,
        "With `q`, keyword hits over party, title and parsed text with a `match_snippet`, best first; without it, " +
          "the catalog newest first. `count` is what this answer holds, `total` what matched. `stats=1` answers " +
          "counts by `parse_status` and agency and the last import time. Federal Register notices are not " +
          "archived: use `/api/federal-register`."
      )
  )
  .add(
    HttpApiEndpoint.get("document", "/api/enforcement/docs/:id")
      .setPath(EnforcementDocumentPath)
      .addSuccess(EnforcementDocumentRecord)
      .addError(EnforcementDocumentNotFound)
      .annotate(OpenApi.Summary, "one archived document's metadata with file_url and text_url")
  )
  .add(
    HttpApiEndpoint.get("documentText", "/api/enforcement/docs/:id/text")
      .setPath(EnforcementDocumentPath)
      .addSuccess(Markdown)
      .addError(EnforcementDocumentNotFound)
      .addError(EnforcementContentUnavailable)
      .annotate(OpenApi.Summary, "an archived document's parsed text (markdown)")
  )
  .add(
    HttpApiEndpoint.get("documentFile", "/api/enforcement/docs/:id/file")
      .setPath(EnforcementDocumentPath)
      .addSuccess(Pdf)
      .addError(EnforcementDocumentNotFound)
      .addError(EnforcementContentUnavailable)
      .annotate(OpenApi.Summary, "an archived document's PDF")
  )
  .annotate(IndexGroup, "enforcement")
  .annotate(OpenApi.Title, "Enforcement")
{}
