import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OAuthLimitsConfig } from "../../src/services/AppConfig.ts"
import {
  addUsers,
  authorizationUrl,
  freeUser,
  handleOf,
  nativeClient,
  newDataDir,
  pkcePair,
  publicAppWithProbe
} from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/** Small budgets and a ten-minute first wait, so that every lock outlasts the test that earns it. */
const limits: OAuthLimitsConfig = {
  signInFreeAttempts: 3,
  signInAddressFreeAttempts: 6,
  signInFirstDelaySeconds: 600,
  signInMaxDelaySeconds: 3600,
  signInWindowSeconds: 900,
  requestsPerMinute: 20,
  registrationsPerHourPerAddress: 3,
  registrationsPerHour: 8,
  maxClients: 1000,
  unusedClientHours: 24
}

// each test comes from addresses of its own (TRUST_PROXY), so the budgets of one never reach another
describe("OAuth abuse limits", () => {
  let server: RunningServer
  let base: string
  let clientId: string
  beforeAll(async () => {
    const dataDir = await newDataDir()
    await addUsers(dataDir, [freeUser])
    server = await startServer({ config: { dataDir, trustProxy: 1, oauthLimits: limits }, app: publicAppWithProbe })
    base = server.url
    clientId = (await register("192.0.2.1")).body.client_id
  })
  afterAll(() => server.close())

  const register = async (address: string) => {
    const response = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify(nativeClient)
    })
    return { response, body: await response.json() as Record<string, any> }
  }

  /** The attacker's loop: a fresh pending request from `GET /oauth/authorize`, then one password on it. */
  const attempt = async (address: string, email: string, password: string) => {
    const headers = { "x-forwarded-for": address }
    const url = authorizationUrl(base, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: nativeClient.redirect_uris[0]!,
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256"
    })
    const page = await fetch(url, { headers })
    const handle = handleOf(await page.text())
    expect(handle).toEqual(expect.any(String))
    const answer = await fetch(`${base}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ handle: handle!, email, password, decision: "allow" })
    })
    const html = await answer.text()
    return {
      status: answer.status,
      retryAfter: answer.headers.get("retry-after"),
      html,
      // the page less its one-time handle: what tells two answers apart
      shape: html.replace(/name="handle" value="[^"]+"/, "")
    }
  }

  const retryAfter = (answer: { readonly retryAfter: string | null }) => Number(answer.retryAfter)
  const alert = (html: string) => /role="alert" id="sign-in-error">([^<]*)</.exec(html)?.[1]

  it("throttles guessing across freshly minted pending requests, and refuses the right password while locked", async () => {
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(await attempt("198.51.100.1", freeUser.email, `guess-${i}`))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429])
    expect(alert(answers[0]!.html)).toBe("The email address or password is not correct.")
    expect(alert(answers[3]!.html)).toBe(
      "The email address or password is not correct. Wait 10 minutes before trying again."
    )
    expect(answers[3]!.retryAfter).toBeNull()
    expect(retryAfter(answers[4]!)).toBeGreaterThan(0)
    expect(retryAfter(answers[4]!)).toBeLessThanOrEqual(600)
    expect(alert(answers[4]!.html)).toBe("Too many sign-in attempts. Wait 10 minutes, then try again.")
    // the consent form is still there: the user can try again on the same request once the wait is over
    expect(handleOf(answers[4]!.html)).toEqual(expect.any(String))
    // from another address too, and with the right password: no password is checked while locked
    const right = await attempt("198.51.100.2", freeUser.email, freeUser.password)
    expect(right.status).toBe(429)
    expect(retryAfter(right)).toBeGreaterThan(0)
  })

  it("answers an unknown e-mail address exactly as a known one, locked or not", async () => {
    const known = []
    const unknown = []
    for (let i = 0; i < 5; i++) {
      known.push(await attempt("198.51.100.3", " FREE@example.com", `guess-${i}`))
      unknown.push(await attempt("198.51.100.4", "nobody@example.com", `guess-${i}`))
    }
    // the known account was locked by the test before: its first answer here is already a 429
    expect(known.map((answer) => answer.status)).toEqual([429, 429, 429, 429, 429])
    expect(unknown.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429])
    expect(retryAfter(unknown[4]!)).toBeGreaterThan(0)
    expect(unknown[4]!.shape).toBe(known[4]!.shape)
  })

  it("locks a client address that tries many accounts, for any account it tries next", async () => {
    const answers = []
    for (let i = 0; i < 8; i++) answers.push(await attempt("203.0.113.5", `user${i}@example.com`, "password-1"))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 429])
    expect(alert(answers[6]!.html)).toContain("Wait 10 minutes before trying again.")
    expect(retryAfter(answers[7]!)).toBeGreaterThan(0)
  })

  it("limits client registration per address and in total, with 429 and Retry-After", async () => {
    const fromOne = []
    for (let i = 0; i < 4; i++) fromOne.push(await register("198.51.100.50"))
    expect(fromOne.map(({ response }) => response.status)).toEqual([201, 201, 201, 429])
    const refused = fromOne[3]!
    expect(refused.body).toEqual({
      error: "temporarily_unavailable",
      error_description: expect.stringMatching(/^too many client registrations from this address; retry in \d+ s$/)
    })
    expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(refused.response.headers.get("cache-control")).toBe("no-store")
    // eight an hour from everyone: one in setup, three above, four more from other addresses
    const others = []
    for (let i = 0; i < 5; i++) others.push(await register(`198.51.100.${60 + i}`))
    expect(others.map(({ response }) => response.status)).toEqual([201, 201, 201, 201, 429])
    expect(others[4]!.body.error_description).toMatch(/^too many client registrations; retry in \d+ s$/)
  })

  it("limits /oauth/token per address with an OAuth error, 429 and Retry-After", async () => {
    const token = () =>
      fetch(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.80" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "svc_code_x", client_id: clientId })
      })
    const statuses = []
    for (let i = 0; i < 20; i++) statuses.push((await token()).status)
    expect(new Set(statuses)).toEqual(new Set([400]))
    const limited = await token()
    expect(limited.status).toBe(429)
    expect(await limited.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: expect.stringMatching(/^too many OAuth requests from this address; retry in \d+ s$/)
    })
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    // the budget is the address's for every OAuth endpoint: the sign-in page is refused too, as a page
    const page = await fetch(`${base}/oauth/authorize?client_id=${clientId}`, {
      headers: { "x-forwarded-for": "198.51.100.80" },
      redirect: "manual"
    })
    expect(page.status).toBe(429)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await page.text()).toContain("Too many OAuth requests from this address.")
    // another address is not limited
    expect(
      (await fetch(`${base}/oauth/authorize?client_id=${clientId}`, {
        headers: { "x-forwarded-for": "198.51.100.81" },
        redirect: "manual"
      })).status
    ).toBe(302)
  })
})
