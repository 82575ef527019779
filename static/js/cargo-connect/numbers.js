// Numbers as the site writes them: a minus sign (U+2212), never a hyphen, before a
// negative number, as the audit, the rating changes and the Daily Challenge's results do.
export const MINUS = "\u2212";

/** Points from hundredths, signed: +2.3, −2.3, 0 (at most two decimals, no trailing 0). */
export function signedPoints(centi) {
  const text = (Math.abs(centi) / 100).toFixed(2).replace(/\.?0+$/, "");
  if (text === "0") return "0";
  return `${centi > 0 ? "+" : MINUS}${text}`;
}
