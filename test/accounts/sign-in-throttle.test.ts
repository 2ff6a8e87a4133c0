import { SqlClient } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { makeSignIns } from "../../src/services/oauth/SignIns.ts"
import { delayAfter, makeSignInThrottle, type SignInThrottle } from "../../src/services/oauth/SignInThrottle.ts"
import * as OAuthServer from "../../src/services/OAuthServer.ts"
import * as UserDirectory from "../../src/services/UserDirectory.ts"
import { authorizationRequest, nativeClient, pkcePair } from "../support/OAuthDriver.ts"
import { freshStore } from "../support/TestStore.ts"

const account = { freeAttempts: 3, firstDelayMillis: 1000, maxDelayMillis: 8000 }
const address = { freeAttempts: 5, firstDelayMillis: 1000, maxDelayMillis: 8000 }
const throttle = makeSignInThrottle({ account, address, windowMillis: 60_000 })

const victim = { email: "Victim@Example.com", address: "198.51.100.7" }

// one store for the file (each test names subjects of its own): building a store costs seconds
describe("sign-in throttle", () => {
  it("waits nothing for the free attempts, then doubles up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => delayAfter(account, attempt))).toEqual([
      0,
      0,
      0,
      1000,
      2000,
      4000,
      8000,
      8000
    ])
    expect(delayAfter({ ...account, freeAttempts: 0 }, 100)).toBe(0)
  })

  it.layer(freshStore)((it) => {
    it.effect("locks an account past its free attempts, whatever the case of the address, until the wait is over", () =>
      Effect.gen(function*() {
        const limits = yield* throttle
        for (let i = 0; i < 3; i++) {
          expect(yield* limits.admit(victim)).toEqual({ _tag: "Admitted", waitAfterFailureMillis: 0 })
        }
        expect(yield* limits.admit({ ...victim, email: " victim@example.COM " })).toEqual({
          _tag: "Admitted",
          waitAfterFailureMillis: 1000
        })
        // locked: refused without counting, however often it is asked and from wherever
        for (let i = 0; i < 3; i++) {
          expect(yield* limits.admit({ ...victim, address: "203.0.113.9" })).toEqual({
            _tag: "Locked",
            retryAfterMillis: 1000
          })
        }
        yield* TestClock.adjust("999 millis")
        expect(yield* limits.admit(victim)).toEqual({ _tag: "Locked", retryAfterMillis: 1 })
        yield* TestClock.adjust("1 millis")
        expect(yield* limits.admit(victim)).toEqual({ _tag: "Admitted", waitAfterFailureMillis: 2000 })
        yield* TestClock.adjust("2 seconds")
        // the right password clears the account's count; the next mistake is free again
        yield* limits.succeeded(victim)
        expect(yield* limits.admit(victim)).toEqual({ _tag: "Admitted", waitAfterFailureMillis: 0 })
      }))

    it.effect("locks a client address that tries many accounts, and forgets both after the window", () =>
      Effect.gen(function*() {
        const limits = yield* throttle
        const tries = (n: number) => ({ email: `user${n}@example.com`, address: "192.0.2.1" })
        const admissions = []
        for (let n = 0; n < 7; n++) admissions.push(yield* limits.admit(tries(n)))
        expect(admissions.map((admission) => admission._tag)).toEqual([
          "Admitted",
          "Admitted",
          "Admitted",
          "Admitted",
          "Admitted",
          "Admitted",
          "Locked"
        ])
        expect(admissions[5]).toEqual({ _tag: "Admitted", waitAfterFailureMillis: 1000 })
        // another address is not locked by this one
        expect(yield* limits.admit({ email: "user0@example.com", address: "192.0.2.2" })).toMatchObject({
          _tag: "Admitted"
        })
        yield* TestClock.adjust("1 second")
        // the count outlives the wait: the next attempt from that address waits longer
        expect(yield* limits.admit(tries(99))).toEqual({ _tag: "Admitted", waitAfterFailureMillis: 2000 })
        yield* TestClock.adjust("2 seconds")
        yield* TestClock.adjust("60 seconds")
        expect(yield* limits.sweep).toBeGreaterThan(0)
        // the address starts afresh: nine attempts would have earned a wait
        expect(yield* limits.admit(tries(100))).toEqual({ _tag: "Admitted", waitAfterFailureMillis: 0 })
      }))

    it.effect("admits a parallel burst only up to the first locking attempt", () =>
      Effect.gen(function*() {
        const limits = yield* throttle
        const burst = yield* Effect.all(
          Array.from({ length: 12 }, () => limits.admit({ email: "burst@example.com", address: undefined })),
          { concurrency: "unbounded" }
        )
        expect(burst.filter((admission) => admission._tag === "Admitted")).toHaveLength(4)
        expect(burst.filter((admission) => admission._tag === "Locked")).toHaveLength(8)
      }))

    it.effect("stores neither the e-mail address nor the client address", () =>
      Effect.gen(function*() {
        const limits = yield* throttle
        yield* limits.admit(victim)
        const sql = yield* SqlClient
        const rows = yield* sql<{ subject: string }>`SELECT subject FROM oauth_sign_in_throttle`
        expect(rows.length).toBeGreaterThanOrEqual(2)
        for (const { subject } of rows) {
          expect(subject).toMatch(/^(account|address):[A-Za-z0-9_-]{43}$/)
          expect(subject.toLowerCase()).not.toContain("victim")
          expect(subject).not.toContain("198.51")
        }
      }))

    it.effect("fails closed: a throttle that cannot be read checks no password and answers 503", () =>
      Effect.gen(function*() {
        let checked = 0
        const users: UserDirectory.UserDirectoryShape = {
          signIn: () =>
            Effect.sync(() => {
              checked++
              return Option.some({ id: "usr_1", email: "owner@example.com", tier: "free" as const })
            }),
          find: () => Effect.succeedNone
        }
        const unreadable: SignInThrottle = {
          admit: () => Effect.fail(new SqlError({ cause: new Error("connection refused"), message: "cannot connect" })),
          succeeded: () => Effect.void,
          sweep: Effect.succeed(0)
        }
        const signIns = yield* makeSignIns(users, unreadable)
        const handle = yield* Effect.orDie(signIns.open(authorizationRequest()))
        const outcome = yield* signIns.decide(
          { handle, email: "owner@example.com", password: "right", approve: true, address: "192.0.2.7" },
          { issuer: "https://ecds.example", consent: () => Effect.succeed("the consent page") }
        )
        expect(outcome).toEqual({
          _tag: "Throttled",
          consent: "the consent page",
          status: 503,
          retryAfterSeconds: 30,
          message: "Sign-in is unavailable for a moment. Try again shortly."
        })
        expect(checked).toBe(0)
      }))

    /** The authorization server over the file's store, with three free attempts and a one-minute first wait. */
    const config = AppConfig.layerWith({
      publicBaseUrl: "https://ecds.example",
      authUrl: "https://ecds.example",
      oauthLimits: {
        signInFreeAttempts: 3,
        signInAddressFreeAttempts: 100,
        signInFirstDelaySeconds: 60,
        signInMaxDelaySeconds: 3600,
        signInWindowSeconds: 900,
        requestsPerMinute: 0,
        registrationsPerHourPerAddress: 0,
        registrationsPerHour: 0,
        maxClients: 100,
        unusedClientHours: 24
      }
    })
    const server = OAuthServer.layer.pipe(Layer.provideMerge(UserDirectory.layerEmbedded), Layer.provide(config))

    it.effect("refuses the right password during the lock and accepts it once the wait is over", () =>
      Effect.gen(function*() {
        const oauth = yield* OAuthServer.OAuthServer
        const users = yield* UserDirectory.makeEmbedded
        yield* Effect.orDie(users.add({ email: "owner@example.com", password: "the-right-password-1", tier: "free" }))
        const client = yield* oauth.register(nativeClient)
        // every attempt on a freshly minted pending request, as the attacker did
        const attempt = (password: string) =>
          Effect.flatMap(
            oauth.beginAuthorization(
              new URLSearchParams({
                response_type: "code",
                client_id: client.client_id,
                redirect_uri: nativeClient.redirect_uris[0]!,
                code_challenge: pkcePair().challenge,
                code_challenge_method: "S256"
              })
            ),
            (consent) =>
              oauth.completeAuthorization({
                handle: consent.handle,
                email: "owner@example.com",
                password,
                approve: true,
                address: "198.51.100.20"
              })
          )
        const tags = []
        for (let i = 0; i < 4; i++) tags.push((yield* attempt("a-guess"))._tag)
        expect(tags).toEqual(["Retry", "Retry", "Retry", "Retry"])
        const locked = yield* attempt("the-right-password-1")
        expect(locked).toMatchObject({ _tag: "Throttled", status: 429, retryAfterSeconds: 60 })
        yield* TestClock.adjust("59 seconds")
        expect(yield* attempt("the-right-password-1")).toMatchObject({ _tag: "Throttled", retryAfterSeconds: 1 })
        yield* TestClock.adjust("1 second")
        const accepted = yield* attempt("the-right-password-1")
        expect(accepted._tag).toBe("Redirect")
        expect(accepted._tag === "Redirect" && new URL(accepted.location).searchParams.has("code")).toBe(true)
        // the account starts afresh after a right password
        expect((yield* attempt("a-guess"))._tag).toBe("Retry")
      }).pipe(Effect.provide(server)))

    it.effect("ends a pending sign-in after ten minutes, a code after one, and tokens at their lifetimes, on the Effect clock", () =>
      Effect.gen(function*() {
        const oauth = yield* OAuthServer.OAuthServer
        const users = yield* UserDirectory.makeEmbedded
        yield* Effect.orDie(users.add({ email: "clock@example.com", password: "the-right-password-3", tier: "free" }))
        const client = yield* oauth.register(nativeClient)
        const challenge = pkcePair()
        const begin = oauth.beginAuthorization(
          new URLSearchParams({
            response_type: "code",
            client_id: client.client_id,
            redirect_uri: nativeClient.redirect_uris[0]!,
            code_challenge: challenge.challenge,
            code_challenge_method: "S256"
          })
        )
        const signIn = (handle: string) =>
          oauth.completeAuthorization({
            handle,
            email: "clock@example.com",
            password: "the-right-password-3",
            approve: true,
            address: undefined
          })
        const code = (outcome: Effect.Effect.Success<ReturnType<typeof signIn>>) =>
          outcome._tag === "Redirect" ? new URL(outcome.location).searchParams.get("code") ?? "" : ""
        const exchange = (value: string) =>
          Effect.either(oauth.token(
            new URLSearchParams({
              grant_type: "authorization_code",
              code: value,
              redirect_uri: nativeClient.redirect_uris[0]!,
              code_verifier: challenge.verifier,
              client_id: client.client_id
            }),
            { authorization: undefined, userAgent: undefined }
          ))

        const expired = yield* begin
        yield* TestClock.adjust("10 minutes")
        expect(yield* signIn(expired.handle)).toEqual({ _tag: "Expired" })

        const pending = yield* begin
        yield* TestClock.adjust("9 minutes")
        const timely = code(yield* signIn(pending.handle))
        yield* TestClock.adjust("59 seconds")
        const issued = Either.getOrThrow(yield* exchange(timely))

        const late = code(yield* signIn((yield* begin).handle))
        yield* TestClock.adjust("1 minute")
        expect(yield* exchange(late)).toMatchObject({
          left: { error: "invalid_grant", description: "the authorization code is not valid" }
        })

        // an access token lives an hour, a refresh token 30 days, both counted on the same clock
        const refresh = (token: string) =>
          Effect.either(oauth.token(
            new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: client.client_id }),
            { authorization: undefined, userAgent: undefined }
          ))
        expect(Option.isSome(yield* oauth.resolveAccessToken(issued.access_token))).toBe(true)
        yield* TestClock.adjust("59 minutes")
        expect(Option.isNone(yield* oauth.resolveAccessToken(issued.access_token))).toBe(true)
        const renewed = Either.getOrThrow(yield* refresh(issued.refresh_token!))
        expect(Option.isSome(yield* oauth.resolveAccessToken(renewed.access_token))).toBe(true)
        yield* TestClock.adjust("30 days")
        expect(yield* refresh(renewed.refresh_token!)).toMatchObject({
          left: { error: "invalid_grant", description: "the refresh token is not valid" }
        })
      }).pipe(Effect.provide(server)))

    it.effect("deletes clients that never completed an authorization, from two instances at once", () =>
      Effect.gen(function*() {
        const [one, two] = [yield* OAuthServer.make, yield* OAuthServer.make]
        // the clients the file's earlier tests registered (one never connected) are a day old by now and
        // go first: the counts below are this test's own
        yield* TestClock.adjust("25 hours")
        yield* one.sweep
        const users = yield* UserDirectory.makeEmbedded
        yield* Effect.orDie(users.add({ email: "sweeper@example.com", password: "the-right-password-2", tier: "free" }))
        const challenge = pkcePair()
        const begin = (clientId: string) =>
          one.beginAuthorization(
            new URLSearchParams({
              response_type: "code",
              client_id: clientId,
              redirect_uri: nativeClient.redirect_uris[0]!,
              code_challenge: challenge.challenge,
              code_challenge_method: "S256"
            })
          )
        const unused = [yield* one.register(nativeClient), yield* two.register(nativeClient)]
        const connected = yield* one.register(nativeClient)
        const signingIn = yield* one.register(nativeClient)
        const consent = yield* begin(connected.client_id)
        const decided = yield* one.completeAuthorization({
          handle: consent.handle,
          email: "sweeper@example.com",
          password: "the-right-password-2",
          approve: true,
          address: undefined
        })
        const code = decided._tag === "Redirect" ? new URL(decided.location).searchParams.get("code") : null
        yield* two.token(
          new URLSearchParams({
            grant_type: "authorization_code",
            code: code ?? "",
            redirect_uri: nativeClient.redirect_uris[0]!,
            code_verifier: challenge.verifier,
            client_id: connected.client_id
          }),
          { authorization: undefined, userAgent: undefined }
        )
        const ids = (clients: ReadonlyArray<OAuthServer.ClientSummary>) =>
          new Set(clients.map((summary) => summary.client.clientId))
        // a day less a minute: nothing is old enough yet
        yield* TestClock.adjust(24 * 3600_000 - 60_000)
        expect((yield* one.sweep).clients).toBe(0)
        // a sign-in begun now is still in flight (ten minutes) when the day is over: it keeps its client
        yield* begin(signingIn.client_id)
        yield* TestClock.adjust("61 seconds")
        const swept = yield* Effect.all([one.sweep, two.sweep], { concurrency: 2 })
        expect(swept[0].clients + swept[1].clients).toBe(2)
        const left = ids(yield* two.listClients)
        for (const client of unused) expect(left.has(client.client_id)).toBe(false)
        expect(left.has(connected.client_id)).toBe(true)
        expect(left.has(signingIn.client_id)).toBe(true)
        expect((yield* one.sweep).clients).toBe(0)
      }).pipe(Effect.provide(Layer.merge(UserDirectory.layerEmbedded, config))))
  })
})
