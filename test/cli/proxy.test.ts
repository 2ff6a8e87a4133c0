import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type IncomingMessage } from "node:http"
import { createProxy, type ProxyServer } from "proxy"
import { cliCommand, offlineEnv, runCli } from "../support/CliEnv.ts"
import { ecfrRoutes } from "../support/EcfrFake.ts"
import { type FakeUpstream, startFakeUpstream } from "../support/FakeUpstream.ts"
import { freePort } from "../support/ports.ts"

const [command, ...args] = cliCommand

/**
 * A real forwarding proxy from npm, recording what it forwarded: undici tunnels every request
 * through `CONNECT host:port`, plain proxied requests would show their absolute URL.
 */
const startProxy = async () => {
  const forwarded: Array<string> = []
  const server: ProxyServer = createProxy(createServer())
  server.prependListener("request", (request: IncomingMessage) => void forwarded.push(request.url ?? ""))
  server.prependListener("connect", (request: IncomingMessage) => void forwarded.push(`CONNECT ${request.url}`))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const waitForListening = async (child: ChildProcess, url: string) => {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    const ok = await fetch(`${url}/health`).then((response) => response.ok, () => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error("the server did not start")
}

describe("the proxy variables on upstream calls (HTTP_PROXY and NO_PROXY; HTTPS_PROXY goes through the same agent)", () => {
  let ecfr: FakeUpstream
  let proxy: Awaited<ReturnType<typeof startProxy>>
  beforeAll(async () => {
    ecfr = await startFakeUpstream([ecfrRoutes()])
    proxy = await startProxy()
  })
  afterAll(async () => {
    await ecfr.close()
    await proxy.close()
  })

  const toEcfr = (entry: string) => entry === `CONNECT ${new URL(ecfr.url).host}` || entry.startsWith(ecfr.url)

  it("ecds sync downloads through the proxy, and straight past it for hosts in NO_PROXY", async () => {
    const proxied = await runCli(
      ["sync", "--parts", "740"],
      offlineEnv({ ECFR_BASE_URL: ecfr.url, HTTP_PROXY: proxy.url })
    )
    expect(proxied.status, proxied.stderr).toBe(0)
    expect(proxy.forwarded.filter(toEcfr).length).toBeGreaterThan(0)
    expect(ecfr.requests.some((request) => request.url.includes("?part=740"))).toBe(true)

    const before = proxy.forwarded.length
    const direct = await runCli(
      ["sync", "--parts", "740"],
      offlineEnv({ ECFR_BASE_URL: ecfr.url, http_proxy: proxy.url, NO_PROXY: "127.0.0.1" })
    )
    expect(direct.status, direct.stderr).toBe(0)
    expect(proxy.forwarded.length).toBe(before)
  }, 240_000)

  it("ecds serve reaches eCFR through the proxy when a request needs a part", async () => {
    const port = await freePort()
    const before = proxy.forwarded.length
    const child = spawn(command, [...args, "serve"], {
      env: offlineEnv({ ECFR_BASE_URL: ecfr.url, HTTP_PROXY: proxy.url, PORT: String(port) }),
      stdio: "ignore"
    })
    try {
      const base = `http://127.0.0.1:${port}`
      await waitForListening(child, base)
      const response = await fetch(`${base}/api/ecfr/740/plain/740.1`)
      expect(response.status).toBe(200)
      expect(await response.text()).toContain("§ 740.1 Introduction.")
      expect(proxy.forwarded.slice(before).some(toEcfr)).toBe(true)
    } finally {
      child.kill("SIGTERM")
    }
  }, 180_000)
})
