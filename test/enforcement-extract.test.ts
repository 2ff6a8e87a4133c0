import { describe, expect, it } from "@effect/vitest"
import { dojDate } from "../src/services/enforcement/DojSource.ts"
import {
  bisActionType,
  containsWords,
  ddtcActionType,
  dojActionType,
  isExportControlMatter,
  partyFromTitle,
  statutesIn
} from "../src/services/enforcement/Extract.ts"

describe("party extraction is conservative", () => {
  it.each([
    ["In the Matter of: Example Trading LLC; Order Denying Export Privileges", "Example Trading LLC"],
    [
      "Example Trading LLC, with an address at 1 Test Road, Nowhere; Order Denying Export Privileges",
      "Example Trading LLC, with an address at 1 Test Road, Nowhere"
    ],
    ["Order Relating to Sample Components GmbH", "Sample Components GmbH"],
    ["Fictional Aviation Co.; Final Order", "Fictional Aviation Co"],
    ["Imaginary Parts Ltd.; Settlement Agreement", "Imaginary Parts Ltd"]
  ])("reads the party stated in %j", (title, party) => {
    expect(partyFromTitle(title)).toBe(party)
  })

  it.each([
    "Order Temporarily Denying Export Privileges",
    "Statutory Debarment Under the International Traffic in Arms Regulations",
    "Sensors and Instrumentation Technical Advisory Committee; Meeting of the Committee",
    "Agency Information Collection Activities; Submission to the Office of Management and Budget",
    "Bureau of Industry and Security; Order Denying Export Privileges",
    "In the Matter of:; Order Denying Export Privileges",
    "Example Person; Request for Comments",
    "Order Relating to Export Privileges"
  ])("answers null rather than guess for %j", (title) => {
    expect(partyFromTitle(title)).toBeNull()
  })
})

describe("statutes are read only where cited", () => {
  it("recognizes act names, abbreviations and U.S.C. and CFR citations, in order of appearance", () => {
    expect(
      statutesIn(
        "Violations of 15 C.F.R. § 764.2(b) and the Export Control Reform Act of 2018, 50 U.S.C. §§ 4801-4852; " +
          "see also IEEPA and 22 U.S.C. 2778 (the AECA) and 22 CFR part 127."
      )
    ).toEqual([
      "15 CFR 764.2",
      "Export Control Reform Act (ECRA)",
      "50 U.S.C. 4801-4852",
      "International Emergency Economic Powers Act (IEEPA)",
      "22 U.S.C. 2778",
      "Arms Export Control Act (AECA)",
      "22 CFR 127"
    ])
  })

  it("finds nothing in text that cites nothing", () => {
    expect(statutesIn("Order Temporarily Denying Export Privileges")).toEqual([])
    expect(statutesIn("An ear for detail; 15 apples; U.S. companies")).toEqual([])
  })
})

describe("action types", () => {
  it.each([
    ["Order Temporarily Denying Export Privileges", "temporary_denial"],
    ["Order Renewing Order Temporarily Denying Export Privileges", "temporary_denial"],
    ["Example LLC; Order Denying Export Privileges", "denial_order"],
    ["Example LLC; Settlement Agreement", "settlement"],
    ["Order Relating to Example LLC", "administrative_order"],
    ["Export Administration Regulations: Revisions to the Entity List", null],
    ["Technical Advisory Committee; Notice of Partially Closed Meeting", null]
  ])("BIS %j is %s", (title, type) => {
    expect(bisActionType(title)).toBe(type)
  })

  it.each([
    ["Statutory Debarment Under the International Traffic in Arms Regulations", "statutory_debarment"],
    ["Notice of Administrative Debarment", "administrative_debarment"],
    ["Rescission of Statutory Debarment", "debarment_rescission"],
    ["Culturally Significant Objects Imported for Exhibition Determinations", null]
  ])("DDTC %j is %s", (title, type) => {
    expect(ddtcActionType(title)).toBe(type)
  })

  it.each([
    ["Engineer Sentenced for Exporting Controlled Items", "criminal"],
    ["Two Men Indicted for Scheme to Export Rifle Scopes", "criminal"],
    ["Company Agrees to Pay Penalty for Export Violations", "settlement"],
    ["Justice Department Announces Export Enforcement Priorities", null]
  ])("DOJ %j is %s", (title, type) => {
    expect(dojActionType(title)).toBe(type)
  })

  it("keeps DOJ releases about export controls and sanctions only", () => {
    expect(isExportControlMatter("charged with violating the Arms Export Control Act")).toBe(true)
    expect(isExportControlMatter("conspiracy to evade U.S. sanctions on a test country")).toBe(true)
    expect(isExportControlMatter("an exporter of shrimp pleaded guilty to tax evasion")).toBe(false)
  })
})

describe("DOJ dates", () => {
  it.each([
    [4082072400, "2099-05-10"],
    ["4082072400", "2099-05-10"],
    ["<time datetime=\"2099-04-15T12:00:00-04:00\">4080038400</time>\n", "2099-04-15"],
    ["<time>4082072400</time>", "2099-05-10"],
    ["2099-01-02T03:04:05Z", "2099-01-02"],
    ["next Tuesday", null],
    [null, null]
  ])("reads %j as %s", (value, date) => {
    expect(dojDate(value)).toBe(date)
  })
})

describe("word matching for filters", () => {
  it("ignores case, accents and punctuation but needs whole words", () => {
    expect(containsWords("Société Générale S.A.", "societe generale")).toBe(true)
    expect(containsWords("ACME-Widgets, Inc.", "acme widgets")).toBe(true)
    expect(containsWords("Acmeon Systems", "acme")).toBe(false)
    expect(containsWords("anything", "!!!")).toBe(false)
  })
})
