/**
 * Numbers written out, as ordinals and as Roman numerals, each with its digits: the equivalences
 * the vocabulary adds as canonical forms (see `Vocabulary.ts`).
 */

const units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
const teens = [
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen"
]
const tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
const ordinalUnits: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth"
}
const ordinal = (word: string) => ordinalUnits[word] ?? (word.endsWith("y") ? `${word.slice(0, -1)}ieth` : `${word}th`)
const romanNumeral = (n: number) => {
  let out = ""
  let left = n
  for (const [value, symbol] of [[40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]] as const) {
    while (left >= value) {
      out += symbol
      left -= value
    }
  }
  return out
}
const digitSuffix = (n: number) =>
  n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th"

/**
 * Numbers 0–99 written out (cardinal and ordinal, "forty four", "forty fourth"), as digit ordinals
 * ("44th") and Roman numerals II–XXXIX, each with its digits as canonical form: "Brigade Forty-Four"
 * finds "Brigade 44", "1st International Bank" "First International Bank". Series markers stay
 * significant: a digit token only ever matches the same digits. "XI" is left alone (a name far
 * more often than a numeral); "I", "V", "X" get the number as an alternate form and stay initials.
 */
export const numberForms: ReadonlyArray<readonly [string, string]> = Array.from({ length: 100 }, (_, n) => {
  const cardinal = n < 10
    ? [units[n]!]
    : n < 20
    ? [teens[n - 10]!]
    : n % 10 === 0
    ? [tens[n / 10]!]
    : [tens[Math.floor(n / 10)]!, units[n % 10]!]
  const ordinalWords = [...cardinal.slice(0, -1), ordinal(cardinal.at(-1)!)]
  const roman = romanNumeral(n)
  return [
    [cardinal.join(" "), String(n)],
    ...(cardinal.length === 2 ? [[cardinal.join(""), String(n)] as const] : []),
    [ordinalWords.join(" "), String(n)],
    [`${n}${digitSuffix(n)}`, String(n)],
    ...(n >= 1 && n < 40 && roman !== "xi" ? [[roman, String(n)] as const] : [])
  ] as const
}).flat()
