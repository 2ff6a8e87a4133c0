import { describe, expect, it } from "@effect/vitest"
import { coverCard, reviewFlow, riskSummary } from "../src/render/graphics/Graphics.ts"
import { cachedSvg, forgetLayouts } from "../src/render/graphics/SvgCache.ts"

/** satori's layouts are reused by their input; that is only right if satori is deterministic. */
describe("picture layout cache", () => {
  const pictures = () => [
    coverCard([{ label: "ECCN", value: "5A002.a" }, { label: "Status", value: "Final", tone: "good" }], 492),
    riskSummary({ label: "Overall", level: 2, value: "Moderate", tone: "caution" }, [
      { label: "End use", level: 1, value: "Low", tone: "good" }
    ], 492),
    reviewFlow(
      [
        { number: 1, title: "Scope", finding: "Item and technology" },
        { number: 2, title: "Rating", outcome: { label: "Cat. 5 Part 2", tone: "neutral" } }
      ],
      "5A002",
      492
    )
  ]

  it("lays a picture out once for the same input, and the same again after forgetting", async () => {
    forgetLayouts()
    const first = pictures()
    const again = pictures()
    first.forEach((picture, i) => expect(again[i]!.svg).toBe(picture.svg))
    const svgs = await Promise.all(first.map((picture) => picture.svg))
    forgetLayouts()
    const fresh = pictures()
    fresh.forEach((picture, i) => expect(picture.svg).not.toBe(first[i]!.svg))
    expect(await Promise.all(fresh.map((picture) => picture.svg))).toEqual(svgs)
  })

  it("tells different inputs apart", async () => {
    const a = coverCard([{ label: "ECCN", value: "5A002.a" }], 492)
    const b = coverCard([{ label: "ECCN", value: "5A992.c" }], 492)
    const narrow = coverCard([{ label: "ECCN", value: "5A002.a" }], 300)
    expect(await b.svg).not.toEqual(await a.svg)
    expect(await narrow.svg).not.toEqual(await a.svg)
  })

  it("does not keep a failed layout", async () => {
    forgetLayouts()
    let calls = 0
    const failing = () => {
      calls++
      return Promise.reject(new Error("layout failed"))
    }
    await expect(cachedSvg("broken", failing)).rejects.toThrow("layout failed")
    await expect(cachedSvg("broken", failing)).rejects.toThrow("layout failed")
    expect(calls).toBe(2)
  })

  it("keeps at most 64 layouts, dropping the least recently used", async () => {
    forgetLayouts()
    const laid: Array<string> = []
    const layout = (key: string) => () => {
      laid.push(key)
      return Promise.resolve(`<svg>${key}</svg>`)
    }
    for (let i = 0; i < 64; i++) await cachedSvg(`k${i}`, layout(`k${i}`))
    await cachedSvg("k0", layout("k0")) // used again: now the most recent
    await cachedSvg("k64", layout("k64")) // one too many: k1 goes
    expect(laid).toHaveLength(65)
    await cachedSvg("k0", layout("k0"))
    await cachedSvg("k64", layout("k64"))
    expect(laid).toHaveLength(65)
    await cachedSvg("k1", layout("k1"))
    expect(laid.at(-1)).toBe("k1")
    expect(laid).toHaveLength(66)
  })

  it("bounds the characters kept", async () => {
    forgetLayouts()
    let calls = 0
    const big = () => {
      calls++
      return Promise.resolve("x".repeat(1_500_000))
    }
    for (const key of ["a", "b", "c"]) await cachedSvg(key, big)
    await new Promise((resolve) => setTimeout(resolve, 0))
    // three of 1.5M characters exceed the 4M budget: the oldest was dropped
    await cachedSvg("a", big)
    expect(calls).toBe(4)
    await cachedSvg("c", big)
    expect(calls).toBe(4)
  })
})
