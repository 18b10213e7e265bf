// A small QR code encoder (ISO/IEC 18004, model 2): byte mode, versions 1–40, levels L/M/Q/H.
// Written for the seat links: `qrMatrix(text)` gives the modules, `qrSvg(text)` an SVG string.

const LEVELS = { L: 0, M: 1, Q: 2, H: 3 };
const FORMAT_BITS = [1, 0, 3, 2]; // L, M, Q, H as the format information spells them

// Error-correction codewords per block, per level, for versions 1..40.
const EC_PER_BLOCK = [
  [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
    28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
    26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
    28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
    30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
];
// Number of error-correction blocks, per level, for versions 1..40.
const BLOCKS = [
  [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
    8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
    17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
  [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
    23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
  [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
    25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
];

// ---- GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 -------------------------------
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/** The Reed–Solomon generator of degree n (highest coefficient first, leading 1 dropped). */
function generator(n) {
  let poly = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] ^= poly[j];
      next[j + 1] ^= mul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

function eccFor(data, n) {
  const gen = generator(n);
  const rem = new Array(n).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem.shift();
    rem.push(0);
    for (let i = 0; i < n; i++) rem[i] ^= mul(gen[i], factor);
  }
  return rem;
}

// ---- capacities -------------------------------------------------------------------------------
function rawModules(v) {
  let result = (16 * v + 128) * v + 64;
  if (v >= 2) {
    const align = Math.floor(v / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (v >= 7) result -= 36;
  }
  return result;
}

function dataCodewords(v, level) {
  return Math.floor(rawModules(v) / 8) - EC_PER_BLOCK[level][v - 1] * BLOCKS[level][v - 1];
}

function alignmentPositions(v) {
  if (v === 1) return [];
  const count = Math.floor(v / 7) + 2;
  const size = v * 4 + 17;
  const step = Math.floor((v * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

// ---- data codewords -------------------------------------------------------------------------
function encodeData(bytes, v, level) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4); // byte mode
  put(bytes.length, v < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(v, level) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j];
    out.push(byte);
  }
  for (let pad = 0xec; out.length < capacity / 8; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

function interleave(data, v, level) {
  const blocks = BLOCKS[level][v - 1];
  const ecLen = EC_PER_BLOCK[level][v - 1];
  const total = Math.floor(rawModules(v) / 8);
  const shortCount = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecLen;
  const dataBlocks = [];
  const eccBlocks = [];
  for (let i = 0, at = 0; i < blocks; i++) {
    const len = shortData + (i < shortCount ? 0 : 1);
    const block = data.slice(at, at + len);
    at += len;
    dataBlocks.push(block);
    eccBlocks.push(eccFor(block, ecLen));
  }
  const out = [];
  for (let i = 0; i <= shortData; i++) {
    for (const block of dataBlocks) if (i < block.length) out.push(block[i]);
  }
  for (let i = 0; i < ecLen; i++) for (const block of eccBlocks) out.push(block[i]);
  return out;
}

// ---- the matrix ----------------------------------------------------------------------------
class Matrix {
  constructor(size) {
    this.size = size;
    this.dark = Array.from({ length: size }, () => new Array(size).fill(false));
    this.fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  }
  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }
}

function drawFunctionPatterns(m, v) {
  const size = m.size;
  for (let i = 0; i < size; i++) {
    m.set(6, i, i % 2 === 0);
    m.set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        m.set(x, y, d !== 2 && d !== 4);
      }
    }
  }
  const pos = alignmentPositions(v);
  const last = pos.length - 1;
  pos.forEach((cx, i) => {
    pos.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          m.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
        }
      }
    });
  });
  drawFormat(m, 0, 0); // reserve the format areas; the real bits come after masking
  if (v >= 7) {
    let rem = v;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (v << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      m.set(a, b, dark);
      m.set(b, a, dark);
    }
  }
}

function drawFormat(m, level, mask) {
  const data = (FORMAT_BITS[level] << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i) => ((bits >>> i) & 1) === 1;
  const size = m.size;
  for (let i = 0; i <= 5; i++) m.set(8, i, bit(i));
  m.set(8, 7, bit(6));
  m.set(8, 8, bit(7));
  m.set(7, 8, bit(8));
  for (let i = 9; i < 15; i++) m.set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i++) m.set(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i++) m.set(8, size - 15 + i, bit(i));
  m.set(8, size - 8, true);
}

function drawCodewords(m, codewords) {
  const size = m.size;
  let i = 0;
  const total = codewords.length * 8;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert++) {
      const y = upward ? size - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        if (m.fixed[y][x]) continue;
        if (i < total) m.dark[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
        i++;
      }
    }
  }
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x, _y) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function applyMask(m, mask) {
  const fn = MASKS[mask];
  for (let y = 0; y < m.size; y++) {
    for (let x = 0; x < m.size; x++) if (!m.fixed[y][x] && fn(x, y)) m.dark[y][x] = !m.dark[y][x];
  }
}

const FINDER_LIKE = [
  [1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0],
  [0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1],
];

/** The standard penalty score: runs, 2×2 blocks, finder-like patterns, dark balance. */
function penalty(m) {
  const size = m.size;
  const at = (x, y, transposed) => (transposed ? m.dark[x][y] : m.dark[y][x]);
  let score = 0;
  for (const transposed of [false, true]) {
    for (let a = 0; a < size; a++) {
      let run = 1;
      for (let b = 1; b <= size; b++) {
        if (b < size && at(b, a, transposed) === at(b - 1, a, transposed)) {
          run++;
          continue;
        }
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
      for (let b = 0; b + 11 <= size; b++) {
        for (const pattern of FINDER_LIKE) {
          if (pattern.every((p, k) => at(b + k, a, transposed) === (p === 1))) score += 40;
        }
      }
    }
  }
  let dark = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (m.dark[y][x]) dark++;
      if (x + 1 < size && y + 1 < size) {
        const c = m.dark[y][x];
        if (c === m.dark[y][x + 1] && c === m.dark[y + 1][x] && c === m.dark[y + 1][x + 1]) {
          score += 3;
        }
      }
    }
  }
  const total = size * size;
  score += 10 * (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1);
  return score;
}

/**
 * The QR symbol for `text` (UTF-8, byte mode) as rows of booleans (true = dark).
 * Options: `level` ("L" | "M" | "Q" | "H", default "M"), `mask` (0–7; default: the best by the
 * penalty rules), `version` (default: the smallest that fits).
 * Returns { size, version, level, mask, modules }.
 */
export function qrMatrix(text, { level = "M", mask = null, version = null } = {}) {
  const lv = LEVELS[level];
  if (lv === undefined) throw new Error(`unknown QR level ${level}`);
  const bytes = Array.from(new TextEncoder().encode(text));
  let v = version;
  if (v === null) {
    for (v = 1; v <= 40; v++) {
      const header = 4 + (v < 10 ? 8 : 16);
      if (header + bytes.length * 8 <= dataCodewords(v, lv) * 8) break;
    }
  }
  if (v > 40 || 4 + (v < 10 ? 8 : 16) + bytes.length * 8 > dataCodewords(v, lv) * 8) {
    throw new Error("text too long for a QR code");
  }
  const codewords = interleave(encodeData(bytes, v, lv), v, lv);
  const build = (k) => {
    const m = new Matrix(v * 4 + 17);
    drawFunctionPatterns(m, v);
    drawCodewords(m, codewords);
    applyMask(m, k);
    drawFormat(m, lv, k);
    return m;
  };
  let best = null;
  let bestMask = 0;
  if (mask !== null) {
    best = build(mask);
    bestMask = mask;
  } else {
    let bestScore = Infinity;
    for (let k = 0; k < 8; k++) {
      const m = build(k);
      const s = penalty(m);
      if (s < bestScore) {
        bestScore = s;
        best = m;
        bestMask = k;
      }
    }
  }
  return { size: best.size, version: v, level, mask: bestMask, modules: best.dark };
}

/** An SVG string drawing the symbol with a 4-module quiet zone. */
export function qrSvg(text, { level = "M", pixels = 200, label = "QR code" } = {}) {
  const { size, modules } = qrMatrix(text, { level });
  const full = size + 8;
  let path = "";
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x + 4} ${y + 4}h1v1h-1z`;
    });
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${label}" ` +
    `width="${pixels}" height="${pixels}" viewBox="0 0 ${full} ${full}" ` +
    `shape-rendering="crispEdges"><rect width="${full}" height="${full}" fill="#fff"/>` +
    `<path d="${path}" fill="#000"/></svg>`
  );
}
