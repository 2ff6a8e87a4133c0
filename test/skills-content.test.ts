import { describe, expect, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { SkillFileKinds, SkillNames } from "../src/domain/Skills.ts"
import * as BundledSkills from "../src/services/skills/Bundled.ts"
import { assemble, type SourceProblem } from "../src/services/skills/Collection.ts"
import { serviceSurface } from "./support/ServiceSurface.ts"
import { checkCollection, endpointMentions, toolMentions } from "./support/SkillContent.ts"

const root = BundledSkills.defaultRoot
const present = existsSync(fileURLToPath(root))
if (!present) console.warn("skills/ is absent: the content checks are skipped until the skill content is merged")

const listed = (problems: ReadonlyArray<SourceProblem>) => problems.map((p) => `${p.path}: ${p.message}`)

const load = async () => {
  const read = await BundledSkills.readDirectory(root)
  const assembled = assemble({ entries: read.entries, upstream: "https://example.test/skills" })
  return { ...assembled, problems: [...read.problems, ...assembled.problems] }
}

describe.skipIf(!present)("skills content (skills/)", () => {
  it("holds only the fixed layout, and all 20 skills are published with valid front matter", async () => {
    const { collection, problems } = await load()
    expect(listed(problems)).toEqual([])
    expect([...collection.skills.keys()]).toEqual([...SkillNames])
  })

  it("has about 146 files: 20 main files plus templates, references and prompts", async () => {
    const { collection } = await load()
    const skills = [...collection.skills.values()]
    const extra = skills.map((skill) => SkillFileKinds.reduce((n, kind) => n + skill.files[kind].size, 0))
    const total = skills.length + extra.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThanOrEqual(140)
    expect(total).toBeLessThanOrEqual(152)
    for (const [i, skill] of skills.entries()) expect(extra[i], skill.name).toBeGreaterThan(0)
    for (const skill of skills) {
      for (const kind of SkillFileKinds) {
        for (const [file, text] of skill.files[kind]) {
          expect(text.length, `${skill.name}/${kind}/${file}`).toBeLessThan(64 * 1024)
        }
      }
    }
  })

  it("refers only to endpoints, MCP tools, skills and files that exist; every placeholder is documented", async () => {
    const { collection } = await load()
    expect(listed(checkCollection(collection, serviceSurface()))).toEqual([])
  })

  it("svc-classify walks the order of review with the regulatory data endpoints and screening", async () => {
    const { collection } = await load()
    const skill = collection.skills.get("svc-classify")!
    const text = [skill.skillMd, ...SkillFileKinds.flatMap((kind) => [...skill.files[kind].values()])].join("\n")
    const paths = endpointMentions(text).map((mention) => mention.path)
    for (const prefix of ["/api/ecfr/", "/api/eccn/", "/api/country-chart"]) {
      expect(paths.some((path) => path.startsWith(prefix)), prefix).toBe(true)
    }
    expect(paths.includes("/api/csl") || toolMentions(text).includes("search_csl"), "screening").toBe(true)
    expect(text).not.toMatch(/`(?:GET|POST) \/api\/classify/)
  })
})
