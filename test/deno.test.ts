import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { denoAvailable, type DenoServer, startDenoServer } from "./support/DenoServer.ts"

describe.skipIf(!denoAvailable)("Deno entry (src/deno-main.ts)", () => {
  let server: DenoServer | undefined
  let url = ""
  beforeAll(async () => {
    server = await startDenoServer({
      ECFR_BASE_URL: "http://127.0.0.1:9",
      DATA_DIR: mkdtempSync(join(tmpdir(), "svc-deno-")),
      LOG_LEVEL: "info"
    })
    url = server.url
  }, 120_000)
  afterAll(() => {
    server?.stop()
  })

  it("serves /health and / from the Deno runtime with the same conventions", async () => {
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    expect(health.headers.get("cache-control")).toBe("no-store")
    expect(health.headers.get("api-version")).toBe("2.3.0")
    const healthBody = await health.json()
    expect(healthBody.runtime).toMatch(/^deno \d+\./)
    expect(healthBody.ecfr).toMatch(/^error: /)

    const index = await fetch(`${url}/`)
    const body = await index.json()
    expect(body.version).toBe("2.3.0")
    expect(body.supportedParts).toHaveLength(12)
    expect(index.headers.get("etag")).toMatch(/^W\//)
    const skill = await fetch(`${url}/skills/svc-classify`)
    expect(skill.status).toBe(200) // the bundled skills/ folder is found from the code, not the working directory
    expect(skill.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
    expect(await skill.text()).toMatch(/^---\nname: svc-classify\n/)
    const missing = await fetch(`${url}/nope`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get("content-type")).toBe("application/problem+json")
  })

  it("serves the OAuth authorization server, writing its store through Deno's node:fs", async () => {
    const metadata = await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()
    expect(metadata.issuer).toBe(url)
    const registered = await fetch(`${url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: ["http://127.0.0.1:9/cb"],
        application_type: "native",
        token_endpoint_auth_method: "none"
      })
    })
    expect(registered.status).toBe(201)
    expect((await registered.json()).client_id).toMatch(/^svc_client_/)
  })

  it("writes only JSON log lines, its address among them (Deno's own notices stay off)", async () => {
    // requests made above read `request.signal`, which under Deno's legacy abort prints a notice
    expect((await fetch(`${url}/health`)).status).toBe(200)
    const port = new URL(url).port
    let output = server!.output()
    for (let waited = 0; waited < 5_000 && !output.stdout.some((line) => line.includes(`:${port}`)); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      output = server!.output()
    }
    expect(output.stderr).toEqual([])
    const records = output.stdout.map((line) => JSON.parse(line) as { readonly msg: string })
    expect(records.map((record) => record.msg)).toContain(`Listening on http://127.0.0.1:${port}`)
    expect(records.map((record) => record.msg)).toContain("request")
  })
})
