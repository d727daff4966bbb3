/**
 * Python's len(str): the number of Unicode code points. JavaScript's `length` counts UTF-16 code
 * units, so an emoji is 2 there and 1 in Python. A lone surrogate counts as one, as Python counts
 * a lone surrogate code point.
 */
export function codePointLength(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}
