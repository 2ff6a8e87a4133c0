import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { MalformedBody, nestsDeeperThan, parseJson } from "../src/domain/JsonBody.ts"

describe("JSON bodies within a nesting limit", () => {
  it("counts objects and arrays, not brackets inside strings or after escapes", () => {
    expect(nestsDeeperThan(`{"a":[{"b":[1]}]}`, 4)).toBe(false)
    expect(nestsDeeperThan(`{"a":[{"b":[1]}]}`, 3)).toBe(true)
    expect(nestsDeeperThan(`{"a":"[[[[[[{{{{"}`, 1)).toBe(false)
    expect(nestsDeeperThan(`{"a":"\\"[[[[","b":"\\\\"}`, 1)).toBe(false)
    expect(nestsDeeperThan(`{"a":"\\\\",  "b":[[[]]]}`, 3)).toBe(true)
  })

  it("never throws on text that is not JSON, however it is cut", () => {
    for (const text of ["", "\"", "\"\\", "]]]]", "[[[", "{\"a\":\"", "\\\\\\"]) {
      expect(() => nestsDeeperThan(text, 2)).not.toThrow()
    }
  })

  it("parses within the limit and says why it refuses", () => {
    expect(parseJson(`{"a":[1,{"b":null}]}`)).toEqual(Either.right({ a: [1, { b: null }] }))
    expect(parseJson(`${"[".repeat(65)}${"]".repeat(65)}`)).toEqual(
      Either.left(new MalformedBody({ reason: "nests objects or arrays deeper than 64 levels" }))
    )
    expect(parseJson(`{"a":`)).toEqual(Either.left(new MalformedBody({ reason: "is not valid JSON" })))
  })
})
