import { Effect, Schema } from "effect"
import { PagedFields, PageOffset } from "../../domain/ResultBudget.ts"
import { SkillBundle, SkillList, SkillMeta, SkillName } from "../../domain/Skills.ts"
import { SkillsMirror } from "../../services/SkillsMirror.ts"
import * as Budget from "../Budget.ts"
import * as Tool from "../Tool.ts"

const NameInput = Schema.Struct({
  name: SkillName.annotations({ description: "The skill, e.g. `svc-classify`; `list_skills` names all 20" })
})

/** The bundle takes the same names; get_skill's listing already enumerates them, once is enough. */
const BundleInput = Schema.Struct({
  name: SkillName.annotations({
    jsonSchema: { type: "string", pattern: "^svc-[a-z-]+$", description: "A skill name as get_skill takes it" }
  }),
  offset: PageOffset
})

/** A page of a bundle: whole files in bundle order (SKILL.md first); the REST document when it all fits. */
const BundlePage = Schema.Struct({
  ...SkillBundle.fields,
  skill_md: Schema.optional(SkillBundle.fields.skill_md),
  ...PagedFields
})
type BundlePage = typeof BundlePage.Type

type FileKind = "templates" | "references" | "prompts"
const fileKinds: ReadonlyArray<FileKind> = ["templates", "references", "prompts"]

/**
 * The files of a bundle from `offset` while they fit the result budget (at least one, so paging
 * moves on; no skill file comes near the budget alone), and the call that reads the rest.
 */
export const bundlePage = (bundle: SkillBundle, offset: number): BundlePage => {
  const files: Array<readonly [FileKind | "skill_md", string, string]> = [
    ["skill_md", "SKILL.md", bundle.skill_md],
    ...fileKinds.flatMap((kind) =>
      Object.entries(bundle[kind] ?? {}).map(([file, text]) => [kind, file, text] as const)
    )
  ]
  const { skill_md: _skill, templates: _t, references: _r, prompts: _p, ...head } = bundle
  // the head (name, description, upstream) and the cut note are room the files cannot use
  const room = Budget.DefaultResultChars - Budget.jsonChars(head) - 400
  const start = Math.min(offset, files.length)
  const shown = files.slice(start, start + Budget.fittingCount(files.slice(start), room))
  const end = start + shown.length
  const page: Record<string, unknown> = { ...head }
  for (const [kind, file, text] of shown) {
    if (kind === "skill_md") page.skill_md = text
    else page[kind] = { ...(page[kind] as Record<string, string> | undefined), [file]: text }
  }
  if (start === 0 && end === files.length) return page as BundlePage
  const left = files.slice(end).map(([, file]) => file)
  return {
    ...(page as BundlePage),
    ...(end < files.length ? { next_offset: end } : {}),
    rest: end < files.length
      ? `Files ${start + 1}-${end} of ${files.length} shown; not yet: ${left.join(", ")}. Rest: ${
        Budget.callOf("get_skill_bundle", { name: bundle.name, offset: end })
      }`
      : `Files ${start + 1}-${end} of ${files.length}: the last page.`
  }
}

/**
 * The list as agents read it over MCP: each skill's HTTP addresses left out (its files are the
 * resources the description names; the 20 skills' URLs were most of a 28,000-character answer).
 */
const McpSkillList = Schema.Struct({
  ...SkillList.fields,
  skills: Schema.Array(Schema.Struct({ ...SkillMeta.fields, urls: Schema.optional(Schema.Never) }))
})

const withoutUrls = (list: SkillList): typeof McpSkillList.Type => ({
  ...list,
  skills: list.skills.map(({ upstream: _upstream, urls: _urls, ...skill }) => skill)
})

/** REST twin: `GET /skills` (without the HTTP addresses of each skill and its files). */
export const listSkills = Tool.make({
  name: "list_skills",
  title: "List the compliance skills",
  description: "The 20 compliance skills: purpose, when to use, and their files, each a resource " +
    "(svc://skills/<name>/<kind>/<file>).",
  version: "1.0.0",
  annotations: Tool.readOnly("List the compliance skills"),
  input: Schema.Struct({}),
  output: Tool.structured(McpSkillList),
  run: () => Effect.flatMap(SkillsMirror, (mirror) => Effect.map(mirror.list, withoutUrls))
})

/** REST twin: `GET /skills/{name}`. */
export const getSkill = Tool.make({
  name: "get_skill",
  title: "Read a skill",
  description:
    "A skill's SKILL.md: the procedure, tools to call, how to cite, what to escalate. Load it before the task.",
  version: "1.0.0",
  annotations: Tool.readOnly("Read a skill"),
  input: NameInput,
  output: Tool.text<string>("text/markdown", (markdown) => markdown),
  run: ({ name }) => Effect.flatMap(SkillsMirror, (mirror) => Effect.map(mirror.skill(name), (skill) => skill.skillMd))
})

/** REST twin: `GET /skills/{name}/bundle`. */
export const getSkillBundle = Tool.make({
  name: "get_skill_bundle",
  title: "Read a skill with all its files",
  description: "SKILL.md plus every template, reference and prompt of one skill (file name → markdown), about " +
    `${Budget.DefaultResultChars} characters a page.`,
  version: "1.0.0",
  annotations: Tool.readOnly("Read a skill with all its files"),
  input: BundleInput,
  output: Tool.structured(BundlePage),
  run: ({ name, offset }) =>
    Effect.flatMap(
      SkillsMirror,
      (mirror) => Effect.map(mirror.bundle(name), (bundle) => bundlePage(bundle, offset ?? 0))
    )
})

export const skillsTools = [listSkills, getSkill, getSkillBundle] as const
