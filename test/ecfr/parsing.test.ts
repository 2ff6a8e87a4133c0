import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { type PartDocument, readPartDocument as readPart } from "../../src/services/ecfr/PartDocument.ts"
import { findPartNode, latestVersions } from "../../src/services/ecfr/Wire.ts"
import { XmlSyntaxError } from "../../src/services/ecfr/Xml.ts"
import { ecfrFixtures } from "../support/EcfrFake.ts"
import { syntheticPartXml } from "../support/EcfrSynthetic.ts"

const fixture = (path: string) => readFileSync(join(ecfrFixtures, path), "utf8")
const readPartDocument = (xml: string, part: number) => Effect.runPromise(readPart(xml, part))
const readFailure = (xml: string, part: number) => Effect.runPromise(Effect.flip(readPart(xml, part)))
const shared = join(import.meta.dirname, "../../../shared/data/ecfr")

describe("eCFR part XML", () => {
  let part740: PartDocument
  beforeAll(async () => {
    part740 = await readPartDocument(fixture("title-15/part-740.xml"), 740)
  })
  const section = (id: string) => part740.sections.find((s) => s.identifier === id)!

  it("finds sections inside subparts and supplements after them, in document order", () => {
    expect(part740.heading).toBe("PART 740—LICENSE EXCEPTIONS")
    expect(part740.sections.map((s) => [s.identifier, s.type])).toEqual([
      ["740.1", "section"],
      ["740.2", "section"],
      ["740.3", "section"],
      ["Supplement No. 1 to Part 740", "appendix"],
      ["Supplement No. 3 to Part 740", "appendix"]
    ])
    expect(section("740.1").label).toBe("§ 740.1 Introduction.")
    expect(section("Supplement No. 1 to Part 740").label).toBe("Supplement No. 1 to Part 740—Country Groups")
  })

  it("reads sections inside subject groups and marks reserved ones", async () => {
    const part121 = await readPartDocument(fixture("title-22/part-121.xml"), 121)
    expect(part121.sections.map((s) => [s.identifier, s.reserved])).toEqual([
      ["121.0", false],
      ["121.1", false],
      ["121.2-121.16", true]
    ])
  })

  it("renders a table with spans, footnotes and typefaces as whitelisted HTML", () => {
    const { html } = section("740.3")
    expect(html).toContain("<caption>Table 1 to Paragraph (a)—Placeholder Table</caption>")
    expect(html).toContain("<th rowspan=\"2\">Row label</th><th colspan=\"2\">Placeholder columns</th>")
    expect(html).toContain("<td>First row<sup>2</sup></td>")
    expect(html).toContain("Third row with a<br>line break")
    expect(html).toContain("10<sup>−6</sup> and H<sub>2</sub>O")
    expect(html).toContain("<div class=\"footnote\">\n<p><sup>1</sup> Placeholder footnote text for paragraph (a).</p>")
    expect(html).not.toMatch(/gpo_table|border=|cellpadding|scope=|width=/)
    expect(section("740.1").html).toContain("an <em>italic run</em>, a <strong>bold run</strong>")
  })

  it("renders clean readable text: paragraphs, aligned table rows, footnote marks", () => {
    expect(section("740.3").plain).toBe([
      "(a) Placeholder. A paragraph with a footnote reference.^1",
      [
        "Table 1 to Paragraph (a)—Placeholder Table",
        "| Row label | Placeholder columns |  |",
        "|  | Column one | Column two |",
        "|---|---|---|",
        "| First row^2 | $1,000 | 100 |",
        "| Second row | $5,000 |  |",
        "| Third row with a line break | N/A | — |"
      ].join("\n"),
      "^2 Placeholder table footnote.",
      "(b) Placeholder paragraph after the table, with a value of 10^−6 and H2O.",
      "^1 Placeholder footnote text for paragraph (a)."
    ].join("\n\n"))
    expect(section("740.1").plain).toContain("“emphasized” term, an italic run, a bold run")
  })

  it("keeps no active content or attributes from hostile markup", async () => {
    const xml = `<DIV5 N="740" TYPE="PART"><DIV8 N="740.1" TYPE="SECTION"><HEAD>§ 740.1 Test.</HEAD>
      <P onclick="steal()">Text &lt;b&gt; <script>alert(1)</script><a href="javascript:alert(2)">link</a>
      <img src="x" onerror="alert(3)"/><STYLE>p { color: red }</STYLE><iframe src="https://example.invalid"/></P>
      <TABLE><TR><TD colspan="2&quot; onmouseover=&quot;x" rowspan="3">cell</TD></TR></TABLE></DIV8></DIV5>`
    const [only] = (await readPartDocument(xml, 740)).sections
    expect(only!.html).not.toMatch(
      /<script|<a\b|<img|<iframe|<style|onclick|onerror|onmouseover|javascript:|color: red/
    )
    expect(only!.html).toContain("Text &lt;b&gt; link")
    expect(only!.html).toContain("<td rowspan=\"3\">cell</td>")
    expect(only!.plain).not.toContain("alert(1)")
  })

  it("rejects truncated XML, another part, and parts without sections", async () => {
    const xml = fixture("title-15/part-740.xml")
    const failures = await Promise.all([
      readFailure(xml.slice(0, xml.length / 2), 740),
      readFailure(xml, 774),
      readFailure(`<DIV5 N="740" TYPE="PART"><HEAD>x</HEAD></DIV5>`, 740),
      readFailure("not xml at all", 740),
      readFailure(
        `<DIV5 N="740"><DIV8 N="740.1"><HEAD>a</HEAD></DIV8><DIV8 N="740.1"><HEAD>b</HEAD></DIV8></DIV5>`,
        740
      )
    ])
    for (const failure of failures) expect(failure).toBeInstanceOf(XmlSyntaxError)
    expect(failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/^malformed XML: /),
      "the document has no DIV5 for part 774",
      "part 740 has no sections",
      expect.stringMatching(/^malformed XML: /),
      "part 740 repeats 740.1"
    ])
  })

  it("parses a large part in slices, letting timers run in between", async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const part = await readPartDocument(syntheticPartXml(774, 2_000_000), 774).finally(() => clearInterval(timer))
    expect(part.sections.map((s) => s.identifier).slice(0, 3)).toEqual([
      "774.1",
      "774.2",
      "Supplement No. 1 to Part 774"
    ])
    expect(part.sections[2]!.plain.length).toBeGreaterThan(1_000_000)
    expect(ticks).toBeGreaterThan(5)
  })

  it("reads the real eCFR part and section samples when they are present", async (context) => {
    if (!existsSync(shared)) {
      console.log(`skipped: ${shared} is absent`)
      return context.skip()
    }
    const part = await readPartDocument(readFileSync(join(shared, "api-samples/part_1_2.xml"), "utf8"), 2)
    expect(part.heading).toBe("PART 2—GENERAL INFORMATION")
    expect(part.sections[0]!.label).toBe("§ 2.1 Scope and purpose.")
    expect(part.sections.find((s) => s.identifier === "2.3")!.plain).toContain("[37 FR 23603, Nov. 4, 1972")
    const appendix = readFileSync(join(shared, "api-samples/appendix_40_261_I.xml"), "utf8")
    expect((await readFailure(appendix, 261)).message).toMatch(/no DIV5/)
  })
})

describe("eCFR structure and versions JSON", () => {
  it("finds the part node in a response rooted at the title and normalizes labels", () => {
    const node = findPartNode(JSON.parse(fixture("title-15/part-740.structure.json")), 740)!
    expect(node.label).toBe("Part 740—License Exceptions")
    expect(node.children!.map((c) => c.identifier)).toEqual([
      "A",
      "B",
      "Supplement No. 1 to Part 740",
      "Supplement No. 3 to Part 740"
    ])
    expect(node.children![2]!.label_description).toBe("Country Groups")
    expect(findPartNode(JSON.parse(fixture("title-15/part-740.structure.json")), 774)).toBeUndefined()
  })

  it("finds every supported part in the real whole-title structure samples when present", (context) => {
    const title15 = join(shared, "structure/title-15.as-of-2025-12-18.json")
    const title22 = join(shared, "structure/title-22.as-of-2025-04-28.json")
    if (!existsSync(title15) || !existsSync(title22)) {
      console.log(`skipped: structure samples under ${shared} are absent`)
      return context.skip()
    }
    const root15 = JSON.parse(readFileSync(title15, "utf8"))
    for (const part of [732, 734, 738, 740, 742, 744, 746, 748, 762, 772, 774]) {
      expect(findPartNode(root15, part)?.type).toBe("part")
    }
    const ccl = findPartNode(root15, 774)!
    expect(ccl.children!.find((c) => c.identifier === "774.2")).toMatchObject({ reserved: true })
    expect(ccl.children!.find((c) => c.identifier === "Supplement No. 1 to Part 774")!.label)
      .toBe("Supplement No. 1 to Part 774—The Commerce Control List")
    const usml = findPartNode(JSON.parse(readFileSync(title22, "utf8")), 121)!
    expect(usml.children![0]!.type).toBe("subject_group")
  })

  it("keeps the latest amendment of each section", () => {
    const versions = latestVersions(JSON.parse(fixture("title-15/part-740.versions.json")), 740)
    expect(versions.map((v) => [v.identifier, v.amendmentDate])).toEqual([
      ["740.1", "2017-01-09"],
      ["740.2", "2026-11-14"],
      ["740.3", "2026-11-14"],
      ["Supplement No. 1 to Part 740", "2026-11-14"],
      ["Supplement No. 3 to Part 740", "2025-02-24"]
    ])
  })
})
