import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import * as AppConfig from "../src/services/AppConfig.ts"
import * as BundledSkills from "../src/services/skills/Bundled.ts"
import { assemble, classifyPath, parseFrontMatter } from "../src/services/skills/Collection.ts"
import { parseSkillsSource } from "../src/services/skills/Source.ts"

describe("SKILLS_SOURCE", () => {
  it("accepts bundled and github:owner/repo[/folder]@ref", () => {
    expect(parseSkillsSource("bundled")).toEqual({ _tag: "Bundled" })
    expect(parseSkillsSource("github:acme/export-skills@main")).toEqual({
      _tag: "GitHub",
      owner: "acme",
      repo: "export-skills",
      path: "skills",
      ref: "main"
    })
    expect(parseSkillsSource("github:acme/mono.repo/packages/skills@release/2026-11")).toMatchObject({
      repo: "mono.repo",
      path: "packages/skills",
      ref: "release/2026-11"
    })
    expect(parseSkillsSource("github:acme/repo@0123456789abcdef0123456789abcdef01234567")).toMatchObject({
      ref: "0123456789abcdef0123456789abcdef01234567"
    })
  })

  it("rejects anything that could steer requests elsewhere", () => {
    for (
      const value of [
        "",
        "github:acme@main",
        "github:acme/repo",
        "github:acme/repo@",
        "github:acme/../other@main",
        "github:acme/repo/../x@main",
        "github:acme/repo@../../main",
        "github:acme/repo@main?x=1",
        "github:acme/repo@ma in",
        "github:acme/repo@/main",
        "github:-acme/repo@main",
        "gitlab:acme/repo@main",
        "https://github.com/acme/repo"
      ]
    ) expect(parseSkillsSource(value), value).toBeUndefined()
  })

  it("an invalid value stops start-up with a message naming the variable", () => {
    const exit = Effect.runSyncExit(
      AppConfig.read.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["SKILLS_SOURCE", "github:x"]]))))
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("SKILLS_SOURCE")
  })
})

describe("skills layout", () => {
  it("classifies paths of the fixed layout and nothing else", () => {
    expect(classifyPath("svc-csl/SKILL.md")).toEqual({ _tag: "Main", skill: "svc-csl" })
    expect(classifyPath("svc-csl/templates/screening record.md")).toEqual({
      _tag: "File",
      skill: "svc-csl",
      kind: "templates",
      filename: "screening record.md"
    })
    for (
      const path of [
        "README.md",
        "svc-other/SKILL.md",
        "svc-csl/skill.md",
        "svc-csl/notes.md",
        "svc-csl/templates/memo.docx",
        "svc-csl/templates/.hidden.md",
        "svc-csl/templates/nested/memo.md",
        "svc-csl/assets/memo.md",
        `svc-csl/prompts/${"a".repeat(98)}.md`
      ]
    ) expect(classifyPath(path)._tag, path).toBe("Unexpected")
  })

  it("parses front matter and reports what is wrong with it", () => {
    expect(parseFrontMatter("---\nname: svc-csl\ndescription: Screens.\ncompatibility: REST\n---\n# Body")).toEqual({
      name: "svc-csl",
      description: "Screens.",
      compatibility: "REST"
    })
    expect(parseFrontMatter("---\nname: svc-csl\ndescription: >\n  Folded\n  text.\n---\n")).toMatchObject({
      description: "Folded text."
    })
    expect(parseFrontMatter("# No front matter")).toHaveProperty("error")
    expect(parseFrontMatter("---\nname: [unclosed\n---\n")).toHaveProperty("error")
    expect(parseFrontMatter("---\nname: a\nname: b\ndescription: x\n---\n")).toHaveProperty("error")
    expect(parseFrontMatter("---\n- a list\n---\n")).toHaveProperty("error")
    expect(parseFrontMatter("---\nname: svc-csl\n---\n")).toEqual({ error: "front matter has no `description` string" })
  })

  it("reads the bundled folder and reports what it does not publish", async () => {
    const read = await BundledSkills.readDirectory(new URL("./fixtures/skills/", import.meta.url))
    expect(read.problems).toEqual([{
      path: "svc-csl/notes.txt",
      message: expect.stringContaining("outside the layout")
    }])
    const { collection, problems } = assemble({ entries: read.entries, upstream: "https://example.test" })
    expect([...collection.skills.keys()]).toEqual(["svc-classify", "svc-csl"])
    expect(problems).toEqual([{ path: "svc-setup/SKILL.md", message: expect.stringContaining("\"svc-set-up\"") }])
    const again = assemble({ entries: [...read.entries].reverse(), upstream: "https://example.test" })
    expect(again.collection.version).toBe(collection.version)
    const edited = read.entries.map((entry) => ({ ...entry, text: `${entry.text} ` }))
    expect(assemble({ entries: edited, upstream: "https://example.test" }).collection.version).not.toBe(
      collection.version
    )
  })

  it("the bundled folder is found from the package, whatever the working directory", () => {
    expect(BundledSkills.defaultRoot.href).toBe(new URL("../skills/", import.meta.url).href)
  })
})
