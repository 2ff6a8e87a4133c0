import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import * as Examples from "../../domain/examples/Skills.ts"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import {
  SkillBundle,
  type SkillFileKind,
  SkillFileNotFound,
  SkillList,
  SkillNames,
  SkillNotPublished,
  UnknownSkill
} from "../../domain/Skills.ts"
import { CachePolicy, IndexGroup } from "../Annotations.ts"

/**
 * Decoded as any string so that an unknown name gets the `UnknownSkill` problem listing the 20
 * names; documented as the enumeration it is.
 */
const skillName = Schema.String.annotations({
  description: "One of the 20 skill names",
  jsonSchema: { type: "string", enum: SkillNames }
})

const SkillPath = Schema.Struct({ name: skillName })

const FilePath = Schema.Struct({
  name: skillName,
  filename: Schema.String.annotations({ description: "File name as listed in `assets`, URL-encoded (spaces as %20)" })
})

const Markdown = (example: string) =>
  HttpApiSchema.Text({ contentType: "text/markdown" }).annotations({ examples: [example] })

/** The example each kind of file shows: one of the bundled `svc-classify` skill's files. */
const fileExamples: Record<SkillFileKind, string> = {
  templates: Examples.templateMarkdown,
  references: Examples.referenceMarkdown,
  prompts: Examples.promptMarkdown
}

const fileEndpoint = <const Name extends string, const Kind extends SkillFileKind>(
  name: Name,
  kind: Kind,
  summary: string
) =>
  HttpApiEndpoint.get(name, `/skills/:name/${kind}/:filename`)
    .setPath(FilePath)
    .addSuccess(Markdown(fileExamples[kind]))
    .addError(UnknownSkill)
    .addError(SkillNotPublished)
    .addError(SkillFileNotFound)
    .addError(UpstreamUnavailable)
    .annotate(OpenApi.Summary, summary)

export class SkillsGroup extends HttpApiGroup.make("skills", { topLevel: true })
  .add(
    HttpApiEndpoint.get("listSkills", "/skills")
      .addSuccess(SkillList)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "the 20 skills: descriptions, file names and absolute URLs")
  )
  .add(
    HttpApiEndpoint.get("getSkill", "/skills/:name")
      .setPath(SkillPath)
      .addSuccess(Markdown(Examples.skillMarkdown))
      .addError(UnknownSkill)
      .addError(SkillNotPublished)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "a skill's main file (SKILL.md) as text/markdown")
  )
  .add(
    HttpApiEndpoint.get("getSkillBundle", "/skills/:name/bundle")
      .setPath(SkillPath)
      .addSuccess(SkillBundle)
      .addError(UnknownSkill)
      .addError(SkillNotPublished)
      .addError(UpstreamUnavailable)
      .annotate(OpenApi.Summary, "a whole skill as JSON: main file, templates, references and prompts")
  )
  .add(fileEndpoint("getSkillTemplate", "templates", "one template of a skill (markdown with {{PLACEHOLDERS}})"))
  .add(fileEndpoint("getSkillReference", "references", "one reference of a skill (markdown)"))
  .add(fileEndpoint("getSkillPrompt", "prompts", "one prompt of a skill (markdown)"))
  .annotate(IndexGroup, "skills")
  .annotate(CachePolicy, "skills")
  .annotate(OpenApi.Title, "Skills")
  .annotate(OpenApi.Description, "Agent instruction packages, mirrored from the skills source and cached 6 hours.")
{}
