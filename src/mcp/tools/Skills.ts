import { Effect, Schema } from "effect"
import { SkillBundle, SkillList, SkillName } from "../../domain/Skills.ts"
import { SkillsMirror } from "../../services/SkillsMirror.ts"
import * as Tool from "../Tool.ts"

const NameInput = Schema.Struct({
  name: SkillName.annotations({ description: "The skill, e.g. `svc-classify`; `list_skills` names all 20" })
})

/** The bundle takes the same names; get_skill's listing already enumerates them, once is enough. */
const BundleInput = Schema.Struct({
  name: SkillName.annotations({
    jsonSchema: { type: "string", pattern: "^svc-[a-z-]+$", description: "A skill name as get_skill takes it" }
  })
})

/** REST twin: `GET /skills`. */
export const listSkills = Tool.make({
  name: "list_skills",
  title: "List the compliance skills",
  description: "The 20 compliance skills: name, purpose, when to use, and their template, reference and prompt " +
    "files. Each file is a resource: svc://skills/<name>, svc://skills/<name>/<kind>/<file>.",
  version: "1.0.0",
  annotations: Tool.readOnly("List the compliance skills"),
  input: Schema.Struct({}),
  output: Tool.structured(SkillList),
  run: () => Effect.flatMap(SkillsMirror, (mirror) => mirror.list)
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
  description: "SKILL.md plus every template, reference and prompt of one skill (file name → markdown).",
  version: "1.0.0",
  annotations: Tool.readOnly("Read a skill with all its files"),
  input: BundleInput,
  output: Tool.structured(SkillBundle),
  run: ({ name }) => Effect.flatMap(SkillsMirror, (mirror) => mirror.bundle(name))
})

export const skillsTools = [listSkills, getSkill, getSkillBundle] as const
