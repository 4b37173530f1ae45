// Source maps of the `coverage` bundle map our own sources token by token and the dependencies line
// by line (bundle-cli.mjs). Node parses a chunk's whole map the first time a stack frame in that chunk
// is formatted, and it formats more often than errors are logged (a stream destroyed with an error
// reads its stack): with every dependency token mapped, the maps held about 65 MB of heap once
// parsed, four fifths of it the dependencies'. A frame in a dependency still names its file and line.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The numbers of one VLQ segment (source map v3). */
function decodeSegment(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = DIGIT.get(ch);
    if (digit === undefined) throw new Error(`source map: "${ch}" is not a base64 digit`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

function encodeNumber(n) {
  let value = n < 0 ? -n * 2 + 1 : n * 2;
  let text = '';
  do {
    let digit = value % 32;
    value = Math.floor(value / 32);
    if (value > 0) digit |= 32;
    text += BASE64[digit];
  } while (value > 0);
  return text;
}

/** Each line's segments with absolute values: [column] or [column, source, line, column(, name)]. */
export function decodeMappings(mappings) {
  const state = [0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter((s) => s !== '')
      .map((text) => {
        const d = decodeSegment(text);
        column += d[0];
        if (d.length === 1) return [column];
        for (let i = 0; i < d.length - 1; i++) state[i] += d[i + 1];
        return d.length === 5 ? [column, state[0], state[1], state[2], state[3]] : [column, state[0], state[1], state[2]];
      });
  });
}

export function encodeMappings(lines) {
  const state = [0, 0, 0, 0];
  return lines
    .map((segments) => {
      let column = 0;
      return segments
        .map((seg) => {
          let text = encodeNumber(seg[0] - column);
          column = seg[0];
          for (let i = 1; i < seg.length; i++) {
            text += encodeNumber(seg[i] - state[i - 1]);
            state[i - 1] = seg[i];
          }
          return text;
        })
        .join(',');
    })
    .join(';');
}

/**
 * The map with the segments into sources `fine` refuses thinned to one per generated line and
 * original line: a position keeps its original source and line everywhere, and its column in the
 * sources `fine` accepts (elsewhere, the column of the first token of its line).
 */
export function coarsenMappings(map, fine) {
  const keep = map.sources.map((source) => fine(source));
  const lines = decodeMappings(map.mappings).map((segments) => {
    const out = [];
    for (const seg of segments) {
      const prev = out.at(-1);
      const coarse = seg.length > 1 && !keep[seg[1]];
      // A coarse segment repeats what the one before it says of source and line: leave it out.
      if (coarse && prev !== undefined && prev.length > 1 && prev[1] === seg[1] && prev[2] === seg[2]) continue;
      out.push(seg);
    }
    return out;
  });
  return { ...map, mappings: encodeMappings(lines) };
}
