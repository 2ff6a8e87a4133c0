import { Schema } from "effect"
import * as Examples from "./examples/Skills.ts"
import { problem } from "./Problem.ts"

/** The 20 skills, in the order SPEC.md lists them; lists and indexes follow this order. */
export const SkillNames = [
  "svc-classify",
  "svc-audit-lookback",
  "svc-compliance-report",
  "svc-country-risk",
  "svc-csl",
  "svc-deemed-export",
  "svc-docx",
  "svc-ecp",
  "svc-encryption",
  "svc-export-docs",
  "svc-jurisdiction",
  "svc-license",
  "svc-partner-compliance",
  "svc-recordkeeping",
  "svc-red-flag-assessment",
  "svc-risk-triage",
  "svc-analytics",
  "svc-onboarding",
  "svc-orchestrator",
  "svc-setup"
] as const

export const SkillName = Schema.Literal(...SkillNames).annotations({ identifier: "SkillName" })
export type SkillName = typeof SkillName.Type

export const isSkillName = (value: string): value is SkillName => (SkillNames as ReadonlyArray<string>).includes(value)

/** The folders of a skill besides its SKILL.md; each holds markdown files. */
export const SkillFileKinds = ["templates", "references", "prompts"] as const
export type SkillFileKind = typeof SkillFileKinds[number]

const fileNames = (kind: SkillFileKind) =>
  Schema.Array(Schema.String).annotations({ description: `File names of the skill's ${kind}` })

const fileUrls = (kind: SkillFileKind) =>
  Schema.Array(Schema.String.annotations({ format: "uri" })).annotations({
    description: `Absolute URLs of the skill's ${kind}`
  })

export const SkillUrls = Schema.Struct({
  skill_md: Schema.String.annotations({ format: "uri", description: "Absolute URL of the main file (markdown)" }),
  bundle: Schema.String.annotations({ format: "uri", description: "Absolute URL of the whole skill as JSON" }),
  templates: fileUrls("templates"),
  references: fileUrls("references"),
  prompts: fileUrls("prompts")
}).annotations({ identifier: "SkillUrls" })

export const SkillAssets = Schema.Struct({
  templates: fileNames("templates"),
  references: fileNames("references"),
  prompts: fileNames("prompts")
}).annotations({ identifier: "SkillAssets" })

export const SkillMeta = Schema.Struct({
  name: SkillName,
  description: Schema.String.annotations({ description: "What the skill does and when an agent should load it" }),
  upstream: Schema.optional(
    Schema.String.annotations({ format: "uri", description: "Where the skill lives in the upstream repository" })
  ),
  urls: Schema.optional(SkillUrls),
  assets: Schema.optional(SkillAssets)
}).annotations({ identifier: "SkillMeta" })
export type SkillMeta = typeof SkillMeta.Type

export const SkillList = Schema.Struct({
  count: Schema.Int,
  upstream: Schema.String.annotations({ format: "uri", description: "Where the skill content comes from" }),
  mcp: Schema.String.annotations({ format: "uri", description: "The MCP endpoint serving the same skills" }),
  skills: Schema.Array(SkillMeta)
}).annotations({ identifier: "SkillList", examples: [Examples.skillList] })
export type SkillList = typeof SkillList.Type

const markdownByName = (kind: SkillFileKind) =>
  Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: `The skill's ${kind}: file name → markdown`
  })

export const SkillBundle = Schema.Struct({
  name: SkillName,
  description: Schema.optional(Schema.String),
  upstream: Schema.optional(Schema.String.annotations({ format: "uri" })),
  skill_md: Schema.String.annotations({ description: "The full main file (markdown with YAML front matter)" }),
  templates: Schema.optional(markdownByName("templates")),
  references: Schema.optional(markdownByName("references")),
  prompts: Schema.optional(markdownByName("prompts"))
}).annotations({ identifier: "SkillBundle", examples: [Examples.skillBundle] })
export type SkillBundle = typeof SkillBundle.Type

const unknownSkill = problem({
  slug: "unknown-skill",
  status: 400,
  title: "Unknown skill",
  description: "The path names no skill; `skills` lists the 20 skill names."
})
export class UnknownSkill extends Schema.TaggedError<UnknownSkill>()("UnknownSkill", {
  ...unknownSkill.fields,
  skills: Schema.Array(SkillName)
}, unknownSkill.annotations) {}

const skillFileNotFound = problem({
  slug: "skill-file-not-found",
  status: 404,
  title: "Skill file not found",
  description: "The skill has no file of that name in that folder; `available` lists the files it does have there."
})
export class SkillFileNotFound extends Schema.TaggedError<SkillFileNotFound>()("SkillFileNotFound", {
  ...skillFileNotFound.fields,
  skill: SkillName,
  kind: Schema.Literal(...SkillFileKinds),
  available: Schema.Array(Schema.String)
}, skillFileNotFound.annotations) {}

const skillNotPublished = problem({
  slug: "skill-not-published",
  status: 404,
  title: "Skill not published",
  description: "The name is one of the 20 skills, but the skills source currently holds no valid copy of it."
})
export class SkillNotPublished extends Schema.TaggedError<SkillNotPublished>()(
  "SkillNotPublished",
  { ...skillNotPublished.fields, skill: SkillName },
  skillNotPublished.annotations
) {}
