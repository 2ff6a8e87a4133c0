import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Option, Schema, SchemaAST } from "effect"
import { EccnAnswer, EccnEntryAnswer, EccnNotFound, EccnParameter } from "../../domain/Eccn.ts"
import { renderEccnText } from "../../domain/EccnText.ts"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import { IndexGroup } from "../Annotations.ts"

export const EccnFormat = Schema.Literal("text", "json").annotations({
  description: "Response format: `text` (text/plain, the default) or `json`; overrides the Accept header"
})

/** The text/plain example: the JSON example (ECCN 3A090) as the endpoint renders it. */
const textExample = (): Record<string, string> => {
  const [example] = Option.getOrElse(SchemaAST.getExamplesAnnotation(EccnEntryAnswer.ast), () => [])
  return Schema.is(EccnEntryAnswer)(example) ? { example: renderEccnText(example) } : {}
}

/** The JSON answer is the documented schema; the default text/plain rendering is added beside it. */
const withTextAlternative = (operation: Record<string, any>): Record<string, any> => {
  const ok = operation.responses?.[200]
  if (ok?.content === undefined) return operation
  ok.content = { "text/plain": { schema: { type: "string" }, ...textExample() }, ...ok.content }
  return operation
}

export class EccnGroup extends HttpApiGroup.make("eccn")
  .add(
    HttpApiEndpoint.get("eccn", "/api/eccn/:eccn")
      .setPath(Schema.Struct({ eccn: EccnParameter }))
      .setUrlParams(Schema.Struct({ format: Schema.optional(EccnFormat) }))
      .addSuccess(EccnAnswer)
      .addError(EccnNotFound)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "one Commerce Control List entry (or one paragraph of it) as clean text or JSON")
      .annotate(
        OpenApi.Description,
        "The control entry of an ECCN from Supplement No. 1 to 15 CFR part 774: heading, License Requirements " +
          "(Reason for Control with Country Chart columns), List Based License Exceptions and List of Items " +
          "Controlled. A paragraph form (`0A501.f`, `5A002.a.1`) returns the heading and control blocks with just " +
          "that paragraph, its subparagraphs and notes. `EAR99` returns an explanation. Plain text by default; " +
          "JSON (the schema below) with `Accept: application/json` or `?format=json`. Unknown ECCN or paragraph: " +
          "404 with the nearest existing ones; malformed: 400."
      )
      .annotate(OpenApi.Transform, withTextAlternative)
  )
  .annotate(IndexGroup, "ecfr")
  .annotate(OpenApi.Title, "ECCN")
{}
