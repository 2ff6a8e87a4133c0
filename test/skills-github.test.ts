import { afterEach, describe, expect, it } from "@effect/vitest"
import { type Duration, Option, Redacted } from "effect"
import { appLayer } from "../src/layers/Main.ts"
import type { AppConfigShape } from "../src/services/AppConfig.ts"
import * as GitHubSkills from "../src/services/skills/GitHub.ts"
import type { SkillsSource } from "../src/services/skills/Source.ts"
import { type FakeGitHub, filesOf, startFakeGitHub } from "./support/FakeGitHub.ts"
import { appWithSkills } from "./support/skillsApp.ts"
import { type RunningServer, startServer } from "./support/TestServer.ts"
import { testStore } from "./support/TestStore.ts"

const source: Extract<SkillsSource, { _tag: "GitHub" }> = {
  _tag: "GitHub",
  owner: "acme",
  repo: "export-skills",
  path: "skills",
  ref: "main"
}
const repoFiles: Record<string, string> = {
  ...filesOf(new URL("./fixtures/skills/", import.meta.url), "skills"),
  "README.md": "# Not a skill: outside the skills folder\n"
}
const adjudication = "skills/svc-csl/references/adjudication.md"

const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const open: Array<{ close: () => Promise<void> }> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((resource) => resource.close()))
})

const startFake = async () => {
  const fake = await startFakeGitHub({ owner: source.owner, repo: source.repo, branch: "main", files: repoFiles })
  open.push(fake)
  return fake
}

/** `SKILLS_SOURCE` stays `bundled` unless a test checks the wiring, so that only the layer under test asks the fake. */
const configFor = (fake: FakeGitHub, extra: Partial<AppConfigShape> = {}): Partial<AppConfigShape> => ({
  githubApiBaseUrl: fake.apiUrl,
  githubRawBaseUrl: fake.rawUrl,
  rateLimitPerMinute: 0,
  ...extra
})

/** The public app with a short refresh period, so that revalidation happens within a test. */
const startMirror = async (
  fake: FakeGitHub,
  refreshAfter: Duration.DurationInput = "300 millis"
): Promise<RunningServer> => {
  const server = await startServer({
    config: configFor(fake),
    app: appWithSkills(GitHubSkills.layer(source, { refreshAfter, retryAfter: refreshAfter }))
  })
  open.push(server)
  return server
}

/** A credential keeps the response microcache out of the way, so each request reaches the mirror. */
const uncached = { headers: { authorization: "Bearer test" } }

const textOf = async (server: RunningServer, path: string) => {
  const response = await server.get(path, uncached)
  return { status: response.status, text: await response.text() }
}

describe("skills mirrored from GitHub", () => {
  it("SKILLS_SOURCE=github:… serves the repository's skills folder, with upstream links and the token sent", async () => {
    const fake = await startFake()
    const server = await startServer({
      config: configFor(fake, {
        skillsSource: source,
        skillsGithubToken: Option.some(Redacted.make("ghs_fixture_token"))
      }),
      app: appLayer("node", testStore)
    })
    open.push(server)
    const list = await (await server.get("/skills")).json()
    expect(list.count).toBe(2)
    expect(list.upstream).toBe(`${fake.apiUrl}/acme/export-skills/tree/main/skills`)
    expect(list.skills[0].upstream).toBe(`${fake.apiUrl}/acme/export-skills/tree/main/skills/svc-classify`)
    expect(list.skills[0].assets.templates).toEqual(["classification memo.md"])
    const template = await textOf(server, "/skills/svc-classify/templates/classification%20memo.md")
    expect(template).toEqual({ status: 200, text: repoFiles["skills/svc-classify/templates/classification memo.md"] })
    expect((await server.get("/skills/svc-setup")).status).toBe(404)
    // only servable files are downloaded, each once
    expect(fake.hits("/raw/")).toBe(7)
    expect(fake.hits(`/raw/acme/export-skills/${fake.head()}/skills/svc-csl/notes.txt`)).toBe(0)
    expect(fake.hits("/raw/acme/export-skills/" + fake.head() + "/README.md")).toBe(0)
    for (const request of fake.upstream.requests) {
      expect(request.headers.authorization, request.url).toBe("Bearer ghs_fixture_token")
    }
  })

  it("revalidates with the ETag after the refresh period: a 304 keeps the copy without downloading", async () => {
    const fake = await startFake()
    const server = await startMirror(fake)
    expect((await server.get("/skills")).status).toBe(200)
    const downloads = fake.hits("/raw/")
    const commits = () => fake.hits("/repos/acme/export-skills/commits/")
    expect(commits()).toBe(1)
    await eventually(
      async () => (await server.get("/skills", uncached)).status === 200 && commits() >= 2,
      "revalidation"
    )
    const conditional = fake.upstream.requests.filter((r) => r.url.includes("/commits/"))[1]!
    expect(conditional.headers["if-none-match"]).toBe(`W/"${fake.head()}"`)
    expect(fake.hits("/repos/acme/export-skills/git/trees/")).toBe(1)
    expect(fake.hits("/raw/")).toBe(downloads)
    expect((await textOf(server, "/skills/svc-csl/references/adjudication.md")).text).toBe(repoFiles[adjudication])
  })

  it("picks up a new commit, downloading only the files that changed", async () => {
    const fake = await startFake()
    const server = await startMirror(fake)
    const path = "/skills/svc-csl/references/adjudication.md"
    expect((await textOf(server, path)).text).toBe(repoFiles[adjudication])
    expect(await (await server.get(path)).text()).toBe(repoFiles[adjudication]) // now in the response microcache
    const downloads = fake.hits("/raw/")
    fake.commit({ [adjudication]: "# Adjudication, revised\n", "skills/svc-csl/prompts/new prompt.md": "# New\n" })
    await eventually(async () => (await textOf(server, path)).text === "# Adjudication, revised\n", "the new commit")
    expect(fake.hits("/raw/")).toBe(downloads + 2)
    expect(await (await server.get(path)).text()).toBe("# Adjudication, revised\n") // the new content evicted it
    const list = await (await server.get("/skills", uncached)).json()
    expect(list.skills[1].assets.prompts).toEqual(["new prompt.md"])
    expect(list.skills[1].urls.prompts).toEqual([`${server.url}/skills/svc-csl/prompts/new%20prompt.md`])
  })

  it("keeps serving the last good copy while GitHub fails", async () => {
    const fake = await startFake()
    const server = await startMirror(fake)
    const before = await textOf(server, "/skills/svc-classify")
    expect(before.status).toBe(200)
    const commits = fake.hits("/repos/acme/export-skills/commits/")
    fake.upstream.down = 503
    await eventually(async () => {
      expect((await server.get("/skills", uncached)).status).toBe(200)
      return fake.hits("/repos/acme/export-skills/commits/") > commits
    }, "a failed revalidation")
    fake.upstream.down = "reset"
    await new Promise((resolve) => setTimeout(resolve, 400))
    for (const path of ["/skills", "/skills/svc-classify", "/skills/svc-classify/bundle"]) {
      expect((await server.get(path, uncached)).status, path).toBe(200)
    }
    expect(await textOf(server, "/skills/svc-classify")).toEqual(before)
  })

  it("keeps the last good copy when a commit leaves the skills folder empty", async () => {
    const fake = await startFake()
    const server = await startMirror(fake)
    const before = await textOf(server, "/skills/svc-csl")
    const trees = () => fake.hits("/repos/acme/export-skills/git/trees/")
    fake.commit(
      Object.fromEntries(Object.keys(repoFiles).filter((p) => p.startsWith("skills/")).map((p) => [p, undefined]))
    )
    await eventually(async () => (await server.get("/skills", uncached)).status === 200 && trees() >= 2, "the new tree")
    expect(await textOf(server, "/skills/svc-csl")).toEqual(before)
    expect((await (await server.get("/skills", uncached)).json()).count).toBe(2)
  })

  it("answers 503 when GitHub fails and no copy has ever been fetched", async () => {
    const fake = await startFake()
    fake.upstream.down = 502
    const server = await startMirror(fake)
    for (const path of ["/skills", "/skills/svc-classify", "/skills/svc-classify/prompts/intake.md"]) {
      const response = await server.get(path)
      expect(response.status, path).toBe(503)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      expect(await response.json()).toMatchObject({
        type: `${server.url}/problems/upstream-unavailable`,
        status: 503,
        upstream: "github"
      })
    }
  })

  it("rejects downloads that do not match the tree's object ids", async () => {
    const fake = await startFake()
    fake.corrupt.add(adjudication)
    const server = await startMirror(fake, "6 hours")
    const response = await server.get("/skills/svc-csl")
    expect(response.status).toBe(503)
    expect((await response.json()).detail).toContain("did not match its git object id")
  })
})
