import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { SkillNames } from "../src/domain/Skills.ts"
import * as BundledSkills from "../src/services/skills/Bundled.ts"
import { rawGet } from "./support/rawHttp.ts"
import { appWithSkills } from "./support/skillsApp.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"

const fixtureRoot = new URL("./fixtures/skills/", import.meta.url)
const fixture = (path: string) => readFileSync(new URL(path, fixtureRoot), "utf8")
const base = "https://svc.example.test"

const startWithSkills = (root: URL) =>
  startServer({
    config: { publicBaseUrl: base, rateLimitPerMinute: 0 },
    app: appWithSkills(BundledSkills.layer(root))
  })

describe("skills endpoints over a bundled folder", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startWithSkills(fixtureRoot)
  })
  afterAll(() => server.close())

  it("GET /skills lists the published skills with absolute URLs under PUBLIC_BASE_URL", async () => {
    const response = await server.get("/skills")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    const body = await response.json()
    expect(body.count).toBe(2)
    expect(body.upstream).toBe(`${base}/skills`)
    expect(body.mcp).toBe(`${base}/mcp`)
    expect(body.skills.map((s: { name: string }) => s.name)).toEqual(["svc-classify", "svc-csl"])
    expect(body.skills[0]).toEqual({
      name: "svc-classify",
      description: "Fixture classification skill. Walks the order of review with the regulatory data endpoints.",
      urls: {
        skill_md: `${base}/skills/svc-classify`,
        bundle: `${base}/skills/svc-classify/bundle`,
        templates: [`${base}/skills/svc-classify/templates/classification%20memo.md`],
        references: [`${base}/skills/svc-classify/references/order-of-review.md`],
        prompts: [`${base}/skills/svc-classify/prompts/intake.md`]
      },
      assets: {
        templates: ["classification memo.md"],
        references: ["order-of-review.md"],
        prompts: ["intake.md"]
      }
    })
    expect(body.skills[1].assets).toEqual({ templates: [], references: ["adjudication.md"], prompts: [] })
  })

  it("serves the main file as text/markdown, cached 6 hours with a weak ETag and 304", async () => {
    const response = await server.get("/skills/svc-classify")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
    expect(response.headers.get("cache-control")).toBe("public, max-age=21600, stale-while-revalidate=86400")
    expect(await response.text()).toBe(fixture("svc-classify/SKILL.md"))
    const etag = response.headers.get("etag")
    expect(etag).toMatch(/^W\/"/)
    const revalidated = await server.get("/skills/svc-classify", { headers: { "if-none-match": etag! } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get("etag")).toBe(etag)
    expect(await revalidated.text()).toBe("")
  })

  it("the list and bundles carry the skills cache policy too", async () => {
    for (const path of ["/skills", "/skills/svc-csl/bundle", "/skills/svc-csl/references/adjudication.md"]) {
      const response = await server.get(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("cache-control"), path).toBe("public, max-age=21600, stale-while-revalidate=86400")
      expect(response.headers.get("etag"), path).toMatch(/^W\/"/)
    }
  })

  it("GET /skills/{name}/bundle returns the whole skill; empty folders are left out", async () => {
    const classify = await (await server.get("/skills/svc-classify/bundle")).json()
    expect(classify).toEqual({
      name: "svc-classify",
      description: "Fixture classification skill. Walks the order of review with the regulatory data endpoints.",
      skill_md: fixture("svc-classify/SKILL.md"),
      templates: { "classification memo.md": fixture("svc-classify/templates/classification memo.md") },
      references: { "order-of-review.md": fixture("svc-classify/references/order-of-review.md") },
      prompts: { "intake.md": fixture("svc-classify/prompts/intake.md") }
    })
    const csl = await (await server.get("/skills/svc-csl/bundle")).json()
    expect(Object.keys(csl).sort()).toEqual(["description", "name", "references", "skill_md"])
  })

  it("serves templates, references and prompts by URL-decoded file name", async () => {
    const cases = [
      ["/skills/svc-classify/templates/classification%20memo.md", "svc-classify/templates/classification memo.md"],
      ["/skills/svc-classify/references/order-of-review.md", "svc-classify/references/order-of-review.md"],
      ["/skills/svc-classify/prompts/intake.md", "svc-classify/prompts/intake.md"]
    ] as const
    for (const [path, file] of cases) {
      const response = await server.get(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
      expect(await response.text()).toBe(fixture(file))
    }
  })

  it("an unknown skill is a 400 problem listing the 20 names, on every skills path", async () => {
    for (const path of ["/skills/svc-nope", "/skills/svc-nope/bundle", "/skills/svc-nope/templates/x.md"]) {
      const response = await server.get(path, { headers: { "x-request-id": "req-unknown-skill" } })
      expect(response.status, path).toBe(400)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      const body = await response.json()
      expect(body).toMatchObject({
        type: `${base}/problems/unknown-skill`,
        title: "Unknown skill",
        status: 400,
        instance: "req-unknown-skill",
        skills: [...SkillNames]
      })
      expect(body.detail).toContain("svc-nope")
    }
  })

  it("an unknown file is a 404 problem listing that skill's files of that kind", async () => {
    const response = await server.get("/skills/svc-classify/templates/memo.md")
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({
      type: `${base}/problems/skill-file-not-found`,
      status: 404,
      skill: "svc-classify",
      kind: "templates",
      available: ["classification memo.md"]
    })
    const prompts = await (await server.get("/skills/svc-csl/prompts/intake.md")).json()
    expect(prompts).toMatchObject({ status: 404, skill: "svc-csl", kind: "prompts", available: [] })
  })

  it("a known name the source holds no valid copy of is a 404 problem", async () => {
    const response = await server.get("/skills/svc-setup/bundle")
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({
      type: `${base}/problems/skill-not-published`,
      status: 404,
      skill: "svc-setup"
    })
  })

  it("path traversal attempts get 400 or 404 and never content from elsewhere", async () => {
    const attempts = [
      "/skills/svc-classify/templates/..%2F..%2F..%2Fpackage.json",
      "/skills/svc-classify/templates/..%2FSKILL.md",
      "/skills/svc-classify/templates/%2e%2e%2fSKILL.md",
      "/skills/svc-classify/templates/%252e%252e%252fSKILL.md",
      "/skills/svc-classify/templates/../SKILL.md",
      "/skills/svc-classify/templates/../../svc-csl/SKILL.md",
      "/skills/svc-classify/references/%2Fetc%2Fpasswd",
      "/skills/svc-classify/references/%2Fetc%2Fpasswd%00.md",
      "/skills/svc-classify/prompts/intake.md%00",
      "/skills/svc-classify/prompts/intake.md%00.txt",
      "/skills/svc-classify/prompts/C:%5Cwindows%5Cwin.ini",
      "/skills/svc-classify/prompts/..%5C..%5Cpackage.json",
      "/skills/..%2F..%2Fpackage.json",
      "/skills/..%2Fsvc-classify/bundle",
      "/skills/svc-classify%2F..%2Fsvc-csl/bundle",
      "/skills/%2Fetc%2Fpasswd",
      "/skills/svc-classify%00/bundle",
      "/skills/svc-classify/templates/%E0%A4%A",
      "/skills/svc-classify/templates/" + "a".repeat(300) + ".md"
    ]
    // text found only inside files: SKILL.md bodies, package.json, /etc/passwd
    const fileContents = ["# Classify an item", "# Screen a party", "devDependencies", "root:x:"]
    for (const path of attempts) {
      const response = await rawGet(server.url, path)
      expect([400, 404], path).toContain(response.status)
      expect(response.headers["content-type"], path).toBe("application/problem+json")
      expect(JSON.parse(response.body).status, path).toBe(response.status)
      for (const text of fileContents) expect(response.body, `${path} served ${text}`).not.toContain(text)
    }
  })

  it("the OpenAPI document and the index describe the skills endpoints", async () => {
    const spec = await (await server.get("/openapi.json")).json()
    for (const path of ["/skills", "/skills/{name}", "/skills/{name}/bundle", "/skills/{name}/templates/{filename}"]) {
      expect(spec.paths[path]?.get, path).toBeDefined()
    }
    const skillParameter = spec.paths["/skills/{name}"].get.parameters.find((p: { name: string }) => p.name === "name")
    expect(skillParameter.schema.enum).toEqual([...SkillNames])
    expect(Object.keys(spec.paths["/skills/{name}"].get.responses).sort()).toEqual(["200", "400", "404", "500", "503"])
    expect(spec.paths["/skills/{name}"].get.responses["200"].content).toHaveProperty(["text/markdown"])
    const index = await (await server.get("/")).json()
    expect(index.endpoints.skills).toContain(
      "GET /skills/{name}/bundle — a whole skill as JSON: main file, templates, references and prompts"
    )
    expect(index.endpoints.skills).toHaveLength(6)
  })
})

describe("skills endpoints when the bundled folder cannot be read", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startWithSkills(new URL("./fixtures/no-such-skills-folder/", import.meta.url))
  })
  afterAll(() => server.close())

  it("answers 503 problems and no stack or file path", async () => {
    for (const path of ["/skills", "/skills/svc-classify", "/skills/svc-classify/templates/x.md"]) {
      const response = await server.get(path)
      expect(response.status, path).toBe(503)
      const body = await response.json()
      expect(body).toMatchObject({ type: `${base}/problems/upstream-unavailable`, status: 503, upstream: "skills" })
      expect(JSON.stringify(body)).not.toContain("no-such-skills-folder")
    }
  })
})

describe.skipIf(!existsSync(fileURLToPath(BundledSkills.defaultRoot)))(
  "the default wiring (SKILLS_SOURCE=bundled)",
  () => {
    let server: RunningServer
    beforeAll(async () => {
      server = await startServer({ config: { rateLimitPerMinute: 0 } })
    })
    afterAll(() => server.close())

    it("serves the repository's skills/ folder", async () => {
      const list = await (await server.get("/skills")).json()
      expect(list.upstream).toBe(`${server.url}/skills`)
      expect(list.skills.map((s: { name: string }) => s.name)).toContain("svc-classify")
      const main = await server.get("/skills/svc-classify")
      expect(main.status).toBe(200)
      expect(await main.text()).toBe(readFileSync(new URL("svc-classify/SKILL.md", BundledSkills.defaultRoot), "utf8"))
    })
  }
)
