import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { makeCodec } from "../../src/services/ecfr/Cursor.ts"
import { highlightExcerpt } from "../../src/services/ecfr/LocalIndex.ts"
import { plainHeading, sanitizeExcerpt } from "../../src/services/ecfr/SearchExcerpt.ts"

describe("search cursors", () => {
  const codec = makeCodec(new Uint8Array(randomBytes(32)))
  const position = { scope: "part:740", q: "license exception", perPage: 5, page: 3 }

  it("round-trips a position without exposing a plain page number", () => {
    const cursor = codec.encode(position)
    expect(codec.decode(cursor)).toEqual(position)
    expect(cursor).not.toContain("page")
  })

  it("rejects altered, foreign and malformed cursors", () => {
    const cursor = codec.encode(position)
    const [payload, tag] = cursor.split(".") as [string, string]
    const forged = Buffer.from(JSON.stringify(["part:740", "license exception", 5, 9])).toString("base64url")
    expect(codec.decode(`${forged}.${tag}`)).toBeUndefined()
    expect(codec.decode(`${payload}.${tag.slice(0, -2)}AA`)).toBeUndefined()
    expect(codec.decode(`${payload}x.${tag}`)).toBeUndefined()
    expect(makeCodec(new Uint8Array(randomBytes(32))).decode(cursor)).toBeUndefined()
    for (const junk of ["", ".", "abc", `${cursor}.extra`, "x".repeat(5000)]) expect(codec.decode(junk)).toBeUndefined()
  })
})

describe("search excerpts", () => {
  it("keeps <strong> highlights and escapes everything else", () => {
    expect(sanitizeExcerpt("a <strong>lantern</strong> &amp; <em>x</em> <img src=x onerror=alert(1)>"))
      .toBe("a <strong>lantern</strong> &amp; &lt;em&gt;x&lt;/em&gt; &lt;img src=x onerror=alert(1)&gt;")
    expect(sanitizeExcerpt("one<span class=\"elipsis\">…</span>two")).toBe("one…two")
    expect(sanitizeExcerpt("5 &lt; 6 &#x2014; \"q\"")).toBe("5 &lt; 6 — &quot;q&quot;")
  })

  it("balances highlight tags", () => {
    expect(sanitizeExcerpt("</strong>a <strong>b")).toBe("a <strong>b</strong>")
    expect(sanitizeExcerpt("<strong><strong>x</strong></strong>")).toBe("<strong>x</strong>")
  })

  it("turns headings into plain text", () => {
    expect(plainHeading("<strong>Nutrition</strong> label &amp; content.")).toBe("Nutrition label & content.")
    expect(plainHeading(null)).toBe("")
  })

  it("builds local excerpts around the first match with every match highlighted", () => {
    const text = `${"filler ".repeat(60)}the Lantern and <b> a lantern again ${"tail ".repeat(60)}`
    const excerpt = highlightExcerpt(text, ["lantern"])
    expect(excerpt.startsWith("…")).toBe(true)
    expect(excerpt.endsWith("…")).toBe(true)
    expect(excerpt).toContain("the <strong>Lantern</strong> and &lt;b&gt; a <strong>lantern</strong> again")
    expect(excerpt.length).toBeLessThan(400)
  })
})
