import { enumeration, retoned } from "./Fields.ts"

/** Value sets shared by the contracts. The value strings are part of the payload contract. */

export const Risk = enumeration("risk", {
  "risk-low": ["Low", "good"],
  "risk-medium": ["Medium", "caution"],
  "risk-high": ["High", "warning"],
  "risk-critical": ["Critical", "danger"]
})

/** Yes/no answers; neutral unless a field says what the answer means (`RedFlag`, `retoned`). */
export const Flag = enumeration("flag", {
  "flag-yes": ["Yes", "neutral"],
  "flag-no": ["No", "neutral"],
  "flag-unknown": ["Unknown", "caution"],
  "flag-na": ["N/A", "neutral"]
})

/** `flag` answers to "is this red flag present?": yes is bad news. */
export const RedFlag = retoned(Flag, { "flag-yes": "danger", "flag-no": "good" })

export const DocumentStatus = enumeration("status", {
  "status-draft": ["Draft", "caution"],
  "status-in-review": ["In review", "caution"],
  "status-approved": ["Approved", "good"],
  "status-superseded": ["Superseded", "neutral"]
})

export const StepOutcome = enumeration("outcome", {
  "outcome-described": ["Described", "warning"],
  "outcome-not-described": ["Not described", "good"],
  "outcome-not-applicable": ["Not applicable", "neutral"],
  "outcome-inconclusive": ["Inconclusive", "danger"]
})

export const ScreeningResult = enumeration("screening", {
  "screen-clear": ["Clear", "good"],
  "screen-potential-match": ["Potential match", "warning"],
  "screen-false-positive": ["False positive (adjudicated)", "good"],
  "screen-confirmed-match": ["Confirmed match", "danger"]
})

export const LicenseNeed = enumeration("license", {
  "license-nlr": ["NLR (no license required)", "good"],
  "license-exception": ["License exception", "good"],
  "license-required": ["License required", "warning"],
  "license-prohibited": ["Prohibited / policy of denial", "danger"],
  "license-pending": ["Pending determination", "caution"]
})

export const Decision = enumeration("decision", {
  "decision-proceed": ["Proceed", "good"],
  "decision-proceed-with-conditions": ["Proceed with conditions", "caution"],
  "decision-hold": ["Hold", "warning"],
  "decision-reject": ["Do not proceed", "danger"]
})

export const ControlStatus = enumeration("control", {
  "control-implemented": ["Implemented", "good"],
  "control-partial": ["Partially implemented", "caution"],
  "control-planned": ["Planned", "warning"],
  "control-not-applicable": ["Not applicable", "neutral"]
})
