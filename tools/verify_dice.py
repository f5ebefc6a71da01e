#!/usr/bin/env python3
"""verify_dice.py: independent verifier for Adjutant's verifiable dice.

Written from docs/dice.md (the dice, byte by byte) and docs/log.md (the match
log) only, with nothing but the Python 3.11 standard library. ChaCha20 is
written out below (RFC 8439 sections 2.1-2.4), not imported.

Usage
-----
  python3 tools/verify_dice.py LOG [--allow-fixed-dice] [--head HEX]
      Verify a match log as docs/log.md "What adjutant verify checks"
      describes: framing, JSON shape, entry hashes, the hash chain, genesis,
      the turn rules of the kinds table, every order digest, every reveal
      against its commitment, and every die re-derived from its turn key and
      label.  On the first failure print one line to stderr,
          entry N (line N, byte OFFSET): REASON
      (OFFSET = 0-based byte offset of the start of that line) and exit 1.
      On success print a short summary to stdout and exit 0.
      A log whose genesis says "dice":"fixed" is checked in full except the
      re-derivation of its dice (they are scripted test dice that prove
      nothing) and fails with exit 1 unless --allow-fixed-dice is given.
      --head HEX additionally requires HEX (a head from a mail) to be the
      hash of some entry of the log.

  python3 tools/verify_dice.py LOG --dump [--allow-fixed-dice]
      Verify as above; only if verification succeeds, print every die to
      stdout, one per line, in log order:
          TURN<TAB>LABEL<TAB>INDEX<TAB>SIDES<TAB>VALUE
      INDEX is the 0-based index of the die within its (turn, label) stream.
      Nothing else is written to stdout in this mode.

  python3 tools/verify_dice.py derive --turn-key HEX --label LABEL --sides N --count K
      Print the first K dice with N sides of LABEL's stream under turn key
      K_T = HEX, space-separated on one line.

  python3 tools/verify_dice.py bid MATCH BIDDER IPCS SALT
      Print the commitment of a sealed bid (docs/log.md "Bids"): a bidder
      checks that the commitment of their receipt, and of the log's sealed
      entry, seals the IPCs they bid under the salt of their receipt.

  python3 tools/verify_dice.py digest MATCH TURN POWER FILE
      Print the digest (docs/dice.md section 2) of the orders in FILE, sent by
      POWER in dice turn TURN of match MATCH: a player checks that the digest
      of their receipt, and of the turn report's list, is that of the text
      they sent. FILE holds the orders as the receipt shows them (the
      receipt's indentation of four spaces, and Windows line ends, are
      removed).

  python3 tools/verify_dice.py --self-test
      Check ChaCha20 against RFC 8439 test vectors and the hash constructions
      against the "Test vectors" section of docs/dice.md (when it has been
      filled in).  Exit 0 if everything checked passed, 1 otherwise.

  (A log file literally named "derive" must be given as ./derive.)

Exit status: 0 = verified / passed, 1 = verification failed, 2 = usage error.
"""

import argparse
import hashlib
import hmac
import json
import os
import re
import struct
import sys
import unicodedata

# ---------------------------------------------------------------------------
# docs/dice.md "Notation"
# ---------------------------------------------------------------------------

DOMAIN_COMMIT = "adjutant/v1/commit"
DOMAIN_ORDER = "adjutant/v1/order"
DOMAIN_TURN_KEY = "adjutant/v1/turn-key"
DOMAIN_LABEL = "adjutant/v1/label"

MASK32 = 0xFFFFFFFF
HEX64 = re.compile(r"[0-9a-f]{64}")  # "hex": 64 lowercase digits; uppercase invalid


def u32(x):
    """Notation: u32(x) = x as 4 bytes, big-endian."""
    if not 0 <= x <= MASK32:
        raise ValueError("u32 out of range: %r" % (x,))
    return struct.pack(">I", x)


def lp_str(s):
    """Notation: str(s) = u32(len) || the len bytes of s in UTF-8."""
    b = s.encode("utf-8")
    return u32(len(b)) + b


def sha256(m):
    """Notation: SHA-256(m), FIPS 180-4, 32 bytes."""
    return hashlib.sha256(m).digest()


def is_hex64(s):
    """Notation: hex = 64 lowercase hexadecimal digits."""
    return isinstance(s, str) and HEX64.fullmatch(s) is not None


# ---------------------------------------------------------------------------
# docs/dice.md section 1: secret and commitment
#   C_T = SHA-256( str(DOMAIN_COMMIT) || str(match) || u32(T) || s_T )
# ---------------------------------------------------------------------------

def commitment(match, turn, secret):
    return sha256(lp_str(DOMAIN_COMMIT) + lp_str(match) + u32(turn) + secret)


# ---------------------------------------------------------------------------
# docs/dice.md section 2: player entropy, order digests
#   d = SHA-256( str(DOMAIN_ORDER) || str(match) || u32(T) || str(power) || str(canonical) )
# ---------------------------------------------------------------------------

def order_digest(match, turn, power, canonical):
    return sha256(lp_str(DOMAIN_ORDER) + lp_str(match) + u32(turn)
                  + lp_str(power) + lp_str(canonical))


# ---------------------------------------------------------------------------
# docs/dice.md section 3: turn key
#   K_T = HMAC-SHA256( key = s_T,
#                      msg = str(DOMAIN_TURN_KEY) || str(match) || u32(T) || u32(n) || d_1 || ... || d_n )
# ---------------------------------------------------------------------------

def turn_key(secret, match, turn, digests, beacon=None):
    """K_T over the digests in the order given (see key_order); for a match
    with a beacon, the round's randomness B follows them ("Beacon")."""
    msg = (lp_str(DOMAIN_TURN_KEY) + lp_str(match) + u32(turn)
           + u32(len(digests)) + b"".join(digests) + (beacon or b""))
    return hmac.new(secret, msg, hashlib.sha256).digest()


# ---------------------------------------------------------------------------
# docs/dice.md section 3, "Beacon": drand rounds (bls-unchained-g1-rfc9380)
# ---------------------------------------------------------------------------

BEACON_SCHEME = "bls-unchained-g1-rfc9380"


def beacon_round_after(genesis_time, period, unix_ms):
    """The first round due strictly after unix_ms; round r is due at
    genesis_time + (r - 1) * period seconds."""
    if unix_ms < genesis_time * 1000:
        return 1
    return (unix_ms - genesis_time * 1000) // (period * 1000) + 2


def beacon_randomness(signature_hex):
    """A round's randomness: SHA-256 of its signature bytes."""
    return sha256(bytes.fromhex(signature_hex))


def time_ms(t):
    """An entry time (log.md "A line") as Unix milliseconds."""
    import calendar
    m = TIME_RE.fullmatch(t)
    y, mo, d, h, mi, s = (int(g) for g in m.groups())
    return calendar.timegm((y, mo, d, h, mi, s)) * 1000 + int(t[20:23])


def key_order(digests, log_format):
    """dice.md section 3: version 2 takes the digests in ascending byte
    order, so no one can choose their order; version 1 in log order."""
    return list(digests) if log_format == LOG_FORMAT_V1 else sorted(digests)


# ---------------------------------------------------------------------------
# docs/dice.md section 4: labels
#   one or more non-empty segments joined by "/", at most 256 bytes of UTF-8,
#   no control characters (Unicode category Cc = U+0000..U+001F, U+007F..U+009F).
# ---------------------------------------------------------------------------

CONTROL_CHAR = re.compile("[\u0000-\u001f\u007f-\u009f]")   # exactly category Cc


def label_problem(label):
    """Return None if `label` is a valid label, else a reason."""
    if not isinstance(label, str):
        return "label is not a string"
    if len(label.encode("utf-8")) > 256:
        return "label longer than 256 bytes of UTF-8"
    m = CONTROL_CHAR.search(label)
    if m:
        return "label contains a control character (U+%04X)" % ord(m.group())
    if any(seg == "" for seg in label.split("/")):
        return "label has an empty segment: %r" % label
    return None


# ---------------------------------------------------------------------------
# ChaCha20 block function, RFC 8439 sections 2.1-2.3 (used by dice.md section 5)
# ---------------------------------------------------------------------------

# RFC 8439 2.3: the four constant words "expand 32-byte k" (little-endian).
CHACHA_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)


def _qr(a, b, c, d):
    """RFC 8439 2.1: the quarter round on four 32-bit words.
    (Reference form; chacha20_block_words inlines it. --self-test checks
    both against the RFC.)"""
    a = (a + b) & MASK32; d ^= a; d = ((d << 16) & MASK32) | (d >> 16)
    c = (c + d) & MASK32; b ^= c; b = ((b << 12) & MASK32) | (b >> 20)
    a = (a + b) & MASK32; d ^= a; d = ((d << 8) & MASK32) | (d >> 24)
    c = (c + d) & MASK32; b ^= c; b = ((b << 7) & MASK32) | (b >> 25)
    return a, b, c, d


def chacha20_block_words(key_words, counter, nonce_words):
    """RFC 8439 2.3: the ChaCha20 block function.

    key_words: 8 words (the 32-byte key read as little-endian u32s),
    counter:   32-bit block counter,
    nonce_words: 3 words (the 12-byte nonce read as little-endian u32s).
    Returns the 16 output words. Serialising them little-endian (RFC 8439
    2.3) gives the 64 keystream bytes of the block, so reading the keystream
    back as little-endian u32s (dice.md section 5) yields exactly these words.
    """
    init = (CHACHA_CONSTANTS[0], CHACHA_CONSTANTS[1], CHACHA_CONSTANTS[2], CHACHA_CONSTANTS[3],
            key_words[0], key_words[1], key_words[2], key_words[3],
            key_words[4], key_words[5], key_words[6], key_words[7],
            counter & MASK32, nonce_words[0], nonce_words[1], nonce_words[2])
    x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15 = init
    M = MASK32
    for _ in range(10):  # 20 rounds = 10 x (column round + diagonal round), RFC 8439 2.3
        # Each group of four lines below is one quarter round (RFC 8439 2.1,
        # the same steps as _qr above) written out on local variables for speed:
        #   a += b; d ^= a; d <<<= 16;  c += d; b ^= c; b <<<= 12;
        #   a += b; d ^= a; d <<<= 8;   c += d; b ^= c; b <<<= 7
        # column round: QUARTERROUND(0,4,8,12), (1,5,9,13), (2,6,10,14), (3,7,11,15)
        x0 = (x0 + x4) & M; x12 ^= x0; x12 = ((x12 << 16) & M) | (x12 >> 16)
        x8 = (x8 + x12) & M; x4 ^= x8; x4 = ((x4 << 12) & M) | (x4 >> 20)
        x0 = (x0 + x4) & M; x12 ^= x0; x12 = ((x12 << 8) & M) | (x12 >> 24)
        x8 = (x8 + x12) & M; x4 ^= x8; x4 = ((x4 << 7) & M) | (x4 >> 25)
        x1 = (x1 + x5) & M; x13 ^= x1; x13 = ((x13 << 16) & M) | (x13 >> 16)
        x9 = (x9 + x13) & M; x5 ^= x9; x5 = ((x5 << 12) & M) | (x5 >> 20)
        x1 = (x1 + x5) & M; x13 ^= x1; x13 = ((x13 << 8) & M) | (x13 >> 24)
        x9 = (x9 + x13) & M; x5 ^= x9; x5 = ((x5 << 7) & M) | (x5 >> 25)
        x2 = (x2 + x6) & M; x14 ^= x2; x14 = ((x14 << 16) & M) | (x14 >> 16)
        x10 = (x10 + x14) & M; x6 ^= x10; x6 = ((x6 << 12) & M) | (x6 >> 20)
        x2 = (x2 + x6) & M; x14 ^= x2; x14 = ((x14 << 8) & M) | (x14 >> 24)
        x10 = (x10 + x14) & M; x6 ^= x10; x6 = ((x6 << 7) & M) | (x6 >> 25)
        x3 = (x3 + x7) & M; x15 ^= x3; x15 = ((x15 << 16) & M) | (x15 >> 16)
        x11 = (x11 + x15) & M; x7 ^= x11; x7 = ((x7 << 12) & M) | (x7 >> 20)
        x3 = (x3 + x7) & M; x15 ^= x3; x15 = ((x15 << 8) & M) | (x15 >> 24)
        x11 = (x11 + x15) & M; x7 ^= x11; x7 = ((x7 << 7) & M) | (x7 >> 25)
        # diagonal round: QUARTERROUND(0,5,10,15), (1,6,11,12), (2,7,8,13), (3,4,9,14)
        x0 = (x0 + x5) & M; x15 ^= x0; x15 = ((x15 << 16) & M) | (x15 >> 16)
        x10 = (x10 + x15) & M; x5 ^= x10; x5 = ((x5 << 12) & M) | (x5 >> 20)
        x0 = (x0 + x5) & M; x15 ^= x0; x15 = ((x15 << 8) & M) | (x15 >> 24)
        x10 = (x10 + x15) & M; x5 ^= x10; x5 = ((x5 << 7) & M) | (x5 >> 25)
        x1 = (x1 + x6) & M; x12 ^= x1; x12 = ((x12 << 16) & M) | (x12 >> 16)
        x11 = (x11 + x12) & M; x6 ^= x11; x6 = ((x6 << 12) & M) | (x6 >> 20)
        x1 = (x1 + x6) & M; x12 ^= x1; x12 = ((x12 << 8) & M) | (x12 >> 24)
        x11 = (x11 + x12) & M; x6 ^= x11; x6 = ((x6 << 7) & M) | (x6 >> 25)
        x2 = (x2 + x7) & M; x13 ^= x2; x13 = ((x13 << 16) & M) | (x13 >> 16)
        x8 = (x8 + x13) & M; x7 ^= x8; x7 = ((x7 << 12) & M) | (x7 >> 20)
        x2 = (x2 + x7) & M; x13 ^= x2; x13 = ((x13 << 8) & M) | (x13 >> 24)
        x8 = (x8 + x13) & M; x7 ^= x8; x7 = ((x7 << 7) & M) | (x7 >> 25)
        x3 = (x3 + x4) & M; x14 ^= x3; x14 = ((x14 << 16) & M) | (x14 >> 16)
        x9 = (x9 + x14) & M; x4 ^= x9; x4 = ((x4 << 12) & M) | (x4 >> 20)
        x3 = (x3 + x4) & M; x14 ^= x3; x14 = ((x14 << 8) & M) | (x14 >> 24)
        x9 = (x9 + x14) & M; x4 ^= x9; x4 = ((x4 << 7) & M) | (x4 >> 25)
    # add the original input words to the output words
    out = (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15)
    return [(o + i) & MASK32 for o, i in zip(out, init)]


def chacha20_block(key, counter, nonce):
    """RFC 8439 2.3: block function on bytes -> 64 keystream bytes."""
    assert len(key) == 32 and len(nonce) == 12
    words = chacha20_block_words(struct.unpack("<8I", key), counter,
                                 struct.unpack("<3I", nonce))
    return struct.pack("<16I", *words)


def chacha20_encrypt(key, counter, nonce, plaintext):
    """RFC 8439 2.4: ChaCha20 encryption (keystream XOR plaintext)."""
    out = bytearray()
    for j in range(0, len(plaintext), 64):
        block = chacha20_block(key, counter + j // 64, nonce)
        chunk = plaintext[j:j + 64]
        out += bytes(p ^ k for p, k in zip(chunk, block))
    return bytes(out)


# ---------------------------------------------------------------------------
# docs/dice.md section 5: a label's stream
#   k_L = SHA-256( str(DOMAIN_LABEL) || K_T || str(label) )
#   stream = ChaCha20 keystream, key k_L, nonce = 12 zero bytes, counter 0, 1, ...
#   read as consecutive 32-bit little-endian words w_0, w_1, ...
# and section 6: dice by rejection sampling.
# ---------------------------------------------------------------------------

def label_key(k_turn, label):
    return sha256(lp_str(DOMAIN_LABEL) + k_turn + lp_str(label))


ZERO_NONCE_WORDS = (0, 0, 0)


class LabelStream:
    """The word stream of one label in one turn (section 5) and the dice
    drawn from it (section 6). The stream state persists, so successive
    dice of a label continue it across `dice` entries and die sizes."""

    __slots__ = ("key_words", "counter", "words", "pos", "drawn")

    def __init__(self, k_turn, label):
        self.key_words = struct.unpack("<8I", label_key(k_turn, label))
        self.counter = 0      # next block to generate
        self.words = []       # words of the current block
        self.pos = 0          # next unread word in self.words
        self.drawn = 0        # number of dice accepted so far (next die's index)

    def next_word(self):
        """Section 5: the next word w_j of the stream (one block at a time)."""
        if self.pos >= len(self.words):
            if self.counter > MASK32:
                raise OverflowError("label stream exhausted 2^32 blocks")
            self.words = chacha20_block_words(self.key_words, self.counter, ZERO_NONCE_WORDS)
            self.counter += 1
            self.pos = 0
        w = self.words[self.pos]
        self.pos += 1
        return w

    def roll(self, sides):
        """Section 6: one die with `sides` faces, by rejection sampling.
        zone = 2^32 - (2^32 mod N); accept w < zone as (w mod N) + 1."""
        if not 2 <= sides <= 65536:
            raise ValueError("sides out of range")
        zone = (1 << 32) - ((1 << 32) % sides)
        while True:
            w = self.next_word()
            if w < zone:
                self.drawn += 1
                return (w % sides) + 1
            # else: discard w and take the next word


def derive_dice(k_turn, label, sides, count):
    """Sections 5-6: the first `count` dice of `label` under turn key k_turn."""
    stream = LabelStream(k_turn, label)
    return [stream.roll(sides) for _ in range(count)]


# ---------------------------------------------------------------------------
# docs/log.md: the match log
# ---------------------------------------------------------------------------

LINE_KEYS = ["seq", "prev", "time", "kind", "body", "hash"]
HASH_PREFIX = b',"hash":"'
# ,"hash":" (9) + 64 hex + "} (2) = 75 bytes. (log.md says "the 78 bytes"; the
# bytes it spells out, and its line template, give 75.)
SUFFIX_LEN = len(HASH_PREFIX) + 64 + 2
ZERO_HASH = "0" * 64
LOG_FORMAT = "adjutant-log/2"
# log.md "Format versions": the first format is still verified, by its own
# rules (no pairing of orders with adjudications, key in log order).
LOG_FORMAT_V1 = "adjutant-log/1"
# log.md: RFC 3339 UTC with milliseconds and Z, e.g. 2026-11-21T07:19:14.123Z
TIME_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z")


# ---------------------------------------------------------------------------
# docs/log.md "Bids": sealed bids
#   C   = SHA-256( str("adjutant/v1/bid-commit") || str(match) || s )
#   salt_B = HMAC-SHA256( s, str("adjutant/v1/bid-salt") || str(match) || str(B) )
#   c_B = SHA-256( str("adjutant/v1/bid") || str(match) || str(B) || u32(ipcs) || salt_B )
#   tie: K = HMAC-SHA256( s, str("adjutant/v1/bid-tie") || str(match) || u32(n) || sorted c )
#        and the first die of label "bid/tie" in K's stream (sections 5-6)
# ---------------------------------------------------------------------------

def bid_commitment(match, secret):
    return sha256(lp_str("adjutant/v1/bid-commit") + lp_str(match) + secret)


def bid_salt(match, secret, bidder):
    return hmac.new(secret, lp_str("adjutant/v1/bid-salt") + lp_str(match) + lp_str(bidder),
                    hashlib.sha256).digest()


def bid_sealed(match, bidder, ipcs, salt):
    return sha256(lp_str("adjutant/v1/bid") + lp_str(match) + lp_str(bidder) + u32(ipcs) + salt)


def bid_tie_die(match, secret, commitments, sides):
    cs = sorted(commitments)
    k = hmac.new(secret, lp_str("adjutant/v1/bid-tie") + lp_str(match) + u32(len(cs))
                 + b"".join(cs), hashlib.sha256).digest()
    return LabelStream(k, "bid/tie").roll(sides)


class LogError(Exception):
    """First verification failure: entry number, byte offset, reason."""

    def __init__(self, entry, offset, reason):
        super().__init__(reason)
        self.entry, self.offset, self.reason = entry, offset, reason

    def line(self):
        return "entry %d (line %d, byte %d): %s" % (self.entry, self.entry, self.offset, self.reason)


class _Bad(Exception):
    """Raised inside the checks of one entry; turned into a LogError."""


def _pairs_hook(pairs):
    """JSON objects: reject duplicate keys, keep key order."""
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise _Bad("duplicate key %r" % k)
        obj[k] = v
    return obj


def _reject_constant(name):
    raise _Bad("invalid JSON number %s" % name)


def _is_int(v):
    return type(v) is int   # not bool, not float


def _check_string(v, what):
    if not isinstance(v, str):
        raise _Bad("%s is not a string" % what)
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise _Bad("%s contains an unpaired surrogate escape" % what)
    return v


def _check_keys(obj, required, optional=(), what="body"):
    if not isinstance(obj, dict):
        raise _Bad("%s is not a JSON object" % what)
    keys = set(obj)
    missing = [k for k in required if k not in keys]
    if missing:
        raise _Bad("%s lacks key(s) %s" % (what, ", ".join(missing)))
    extra = sorted(keys - set(required) - set(optional))
    if extra:
        raise _Bad("%s has unknown key(s) %s" % (what, ", ".join(map(repr, extra))))


def _check_turn(v):
    if not _is_int(v) or not 1 <= v <= MASK32:
        raise _Bad("turn is not an integer in 1..2^32-1")
    return v


class Verifier:
    """Checks a log entry by entry (docs/log.md "What adjutant verify
    checks", steps 1-4 applied to each entry before moving to the next)."""

    def __init__(self, rederive=True):
        self.rederive = rederive
        self.prev_hash = ZERO_HASH
        self.hashes = []
        self.match = None
        self.dice_mode = None
        self.format = None
        self.game = None
        self.beacon = None       # the genesis beacon network, if any
        self.beacon_rounds = 0   # rounds whose BLS signature is left to adjutant verify
        self.entry_time = None   # the time of the entry being checked
        self.last_time = None    # times never go backwards (log.md "A line")
        # log.md "Messages" (format 2): the order entry waiting for its
        # adjudication, as [seq, turn, power, revealed-by-it]
        self.pending = None
        self.seen = {}           # digest -> entry, for the open turn before its reveal
        # log.md kind `organiser`: what the organisers did so far
        self.powers = []         # the genesis players' powers
        self.paused = None       # the entry that paused the match, while paused
        self.ended = None        # the entry that ended the match
        self.out = []            # powers that forfeited or resigned
        self.positions = []      # adjudication entries of the current line (rollback targets)
        self.version = None      # the rules version the match is at (genesis, then upgrades)
        self.upgraded = None     # the last upgrade's entry: no rollback goes back before it
        self.reveal_due = None   # an organiser's reveal_bids, until the bids' reveal that follows
        # log.md "Bids": [bidders, side, commitment] of the open bid, the
        # sealed bids as [bidder, commitment] in log order, the reveal's entry
        self.bid_open = None
        self.bid_sealed = []
        self.bid_revealed = None
        # turn state (log.md kinds table)
        self.turn = 0            # number of the last opened turn (0: none yet)
        self.commit = None       # C_T of the open turn
        self.revealed = False
        self.digests = []        # digests of orders of the open turn before its reveal
        self.k_turn = None
        self.streams = {}        # label -> LabelStream, for the open turn
        self.indices = {}        # label -> next die index (used when not re-deriving)
        # counters for the summary
        self.n_orders = 0
        self.n_dice = 0
        self.dump = []           # (turn, label, index, sides, value)

    # -- log.md "A line" and "The entry hash" (check step 1) --------------
    def check_line(self, seq, line):
        if len(line) < SUFFIX_LEN or line[-SUFFIX_LEN:-SUFFIX_LEN + len(HASH_PREFIX)] != HASH_PREFIX \
                or line[-2:] != b'"}':
            raise _Bad('line does not end with ,"hash":"<64 hex>"}')
        hex_hash = line[-66:-2]
        if re.fullmatch(rb"[0-9a-f]{64}", hex_hash) is None:
            raise _Bad("hash is not 64 lowercase hex digits")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise _Bad("not valid UTF-8 (byte %d of the line)" % e.start)
        if not line.startswith(b"{"):
            raise _Bad("line does not start with {")
        p = line[:-SUFFIX_LEN]
        computed = hashlib.sha256(p).hexdigest()
        if computed != hex_hash.decode("ascii"):
            raise _Bad("entry hash mismatch: line says %s, SHA-256 of its bytes is %s"
                       % (hex_hash.decode("ascii"), computed))
        try:
            obj = json.loads(text, object_pairs_hook=_pairs_hook, parse_constant=_reject_constant)
        except json.JSONDecodeError as e:
            raise _Bad("not valid JSON: %s" % e)
        if not isinstance(obj, dict):
            raise _Bad("line is not a JSON object")
        if list(obj) != LINE_KEYS:
            raise _Bad("keys must be exactly %s in that order, found %s"
                       % (",".join(LINE_KEYS), ",".join(obj)))
        if not _is_int(obj["seq"]) or obj["seq"] != seq:
            raise _Bad("seq is %r, expected %d" % (obj["seq"], seq))
        if not is_hex64(obj["prev"]):
            raise _Bad("prev is not 64 lowercase hex digits")
        if obj["prev"] != self.prev_hash:
            raise _Bad("prev %s does not chain to the previous entry's hash %s"
                       % (obj["prev"], self.prev_hash))
        t = obj["time"]
        if not isinstance(t, str) or TIME_RE.fullmatch(t) is None or not _plausible_time(t):
            raise _Bad("time %r is not RFC 3339 UTC with milliseconds and Z" % (t,))
        # One fixed-width form, so text order is time order.
        if self.last_time is not None and t < self.last_time:
            raise _Bad("time %s is earlier than the previous entry's %s: entries are appended "
                       "in time order" % (t, self.last_time))
        if not isinstance(obj["kind"], str):
            raise _Bad("kind is not a string")
        if not isinstance(obj["body"], dict):
            raise _Bad("body is not a JSON object")
        if obj["hash"] != computed:   # implied by the suffix check; kept for clarity
            raise _Bad("hash field does not match")
        return obj, computed

    # -- log.md kinds table (check steps 2-4) ------------------------------
    def check_entry(self, seq, obj):
        kind, body = obj["kind"], obj["body"]
        if seq == 1:
            if kind != "genesis":
                raise _Bad("first entry is %r, not genesis" % kind)
            return self.genesis(body)
        if self.reveal_due is not None:
            # log.md: an organiser's reveal_bids is followed by the reveal.
            at, self.reveal_due = self.reveal_due, None
            if kind != "bid" or body.get("step") != "reveal":
                raise _Bad("a %s entry after the organisers' reveal_bids at entry %d: the bids' "
                           "reveal comes next" % (kind, at))
        if self.ended is not None and kind in ("turn_open", "order", "reveal", "dice",
                                               "adjudication"):
            raise _Bad("a %s entry after the match ended at entry %d: an ended match takes no "
                       "more orders or dice" % (kind, self.ended))
        if kind == "organiser":
            return self.organiser(body, seq)
        if kind == "escalation":
            return self.escalation(body)
        if kind == "bid":
            return self.bid(body, seq)
        if kind == "order":
            if self.bid_open is not None and self.bid_revealed is None:
                raise _Bad("an order while the bids are sealed: the match starts when they are "
                           "revealed")
            return self.order(body, seq)
        handler = {"turn_open": self.turn_open,
                   "reveal": self.reveal, "dice": self.dice,
                   "adjudication": self.adjudication, "received": self.received,
                   "welcome": self.welcome, "deadline": self.deadline}.get(kind)
        if kind == "genesis":
            raise _Bad("genesis is only allowed as entry 1")
        if handler is None:
            raise _Bad("unknown kind %r (formats 1 and 2 have genesis, turn_open, "
                       "order, reveal, dice, adjudication, received, welcome, deadline, organiser, "
                       "escalation, bid)" % (kind,))
        handler(body)
        if kind == "adjudication":
            self.positions.append(seq)

    def genesis(self, body):
        _check_keys(body, ["format", "match", "dice", "engine"],
                    ["game", "game_hash", "players", "beacon", "rules_version"])
        if "rules_version" in body and (not _is_int(body["rules_version"])
                                        or body["rules_version"] < 1):
            raise _Bad("rules_version is not a positive whole number")
        # log.md "Rules version": the version the match is at (None: none
        # recorded, replayed as 1), moved on by each organiser's upgrade.
        self.version = body.get("rules_version")
        if "beacon" in body:
            b = body["beacon"]
            _check_keys(b, ["name", "chain_hash", "public_key", "genesis_time", "period", "scheme"],
                        what="beacon")
            _check_string(b["name"], "beacon name")
            if not is_hex64(b["chain_hash"]):
                raise _Bad("beacon chain_hash is not 64 lowercase hex digits")
            if not isinstance(b["public_key"], str) \
                    or re.fullmatch(r"[0-9a-f]{192}", b["public_key"]) is None:
                raise _Bad("beacon public_key is not 96 bytes of lowercase hex")
            if not _is_int(b["genesis_time"]) or b["genesis_time"] < 0:
                raise _Bad("beacon genesis_time is not a whole number of seconds")
            if not _is_int(b["period"]) or b["period"] < 1:
                raise _Bad("beacon period is not a positive whole number of seconds")
            if b["scheme"] != BEACON_SCHEME:
                raise _Bad("beacon scheme %r is not %r" % (b["scheme"], BEACON_SCHEME))
            self.beacon = b
        if "game" in body:
            _check_string(body["game"], "game")
        if "game_hash" in body and not is_hex64(body["game_hash"]):
            raise _Bad("game_hash is not 64 lowercase hex digits")
        for i, p in enumerate(body.get("players", [])):
            if not isinstance(p, dict):
                raise _Bad("players[%d] is not an object" % i)
            _check_keys(p, ["power", "name"], what="players[%d]" % i)
            _check_string(p["power"], "power")
            _check_string(p["name"], "name")
            self.powers.append(p["power"])
        if body["format"] not in (LOG_FORMAT, LOG_FORMAT_V1):
            raise _Bad("unknown format %r (expected %r or %r)"
                       % (body["format"], LOG_FORMAT, LOG_FORMAT_V1))
        self.format = body["format"]
        self.game = body.get("game")
        self.match = _check_string(body["match"], "match")
        if body["dice"] not in ("verifiable", "fixed"):
            raise _Bad('dice is %r, expected "verifiable" or "fixed"' % (body["dice"],))
        self.dice_mode = body["dice"]
        _check_string(body["engine"], "engine")
        if self.dice_mode == "fixed":
            self.rederive = False

    def turn_open(self, body):
        _check_keys(body, ["turn", "commitment"])
        t = _check_turn(body["turn"])
        if t != self.turn + 1:
            raise _Bad("turn_open for turn %d, expected turn %d" % (t, self.turn + 1))
        if self.turn and not self.revealed:
            raise _Bad("turn %d opened before turn %d was revealed" % (t, self.turn))
        if self.paired() and self.pending is not None:
            raise _Bad("turn %d opens while the orders of entry %d (%s) wait for their "
                       "adjudication" % (t, self.pending[0], self.pending[2]))
        if not is_hex64(body["commitment"]):
            raise _Bad("commitment is not 64 lowercase hex digits")
        self.turn, self.commit, self.revealed = t, bytes.fromhex(body["commitment"]), False
        self.digests, self.k_turn, self.streams, self.indices = [], None, {}, {}
        self.seen = {}

    def paired(self):
        """Format 2: every order is adjudicated before the next is logged."""
        return self.format != LOG_FORMAT_V1

    def _open_turn(self, body, kind):
        t = _check_turn(body["turn"])
        if self.turn == 0:
            raise _Bad("%s for turn %d but no turn is open" % (kind, t))
        if t != self.turn:
            raise _Bad("%s names turn %d but the open turn is %d" % (kind, t, self.turn))
        return t

    def order(self, body, seq):
        _check_keys(body, ["turn", "power", "canonical", "digest"], ["message_id", "mail_sha256"])
        t = self._open_turn(body, "order")
        power = _check_string(body["power"], "power")
        canonical = _check_string(body["canonical"], "canonical")
        if not is_hex64(body["digest"]):
            raise _Bad("digest is not 64 lowercase hex digits")
        if "message_id" in body:
            _check_string(body["message_id"], "message_id")
        if "mail_sha256" in body and not is_hex64(body["mail_sha256"]):
            raise _Bad("mail_sha256 is not 64 lowercase hex digits")
        d = order_digest(self.match, t, power, canonical)
        if d.hex() != body["digest"]:
            raise _Bad("order digest mismatch: log says %s, dice.md section 2 gives %s"
                       % (body["digest"], d.hex()))
        if self.paired():
            if self.pending is not None:
                raise _Bad("the orders of entry %d (%s) were never adjudicated: each accepted "
                           "message is adjudicated before the next is logged"
                           % (self.pending[0], self.pending[2]))
            if not self.revealed:
                if d in self.seen:
                    raise _Bad("these orders repeat entry %d of dice turn %d (same power, same "
                               "text) before its reveal: a digest feeds a turn key once"
                               % (self.seen[d], t))
                self.seen[d] = seq
            self.pending = [seq, t, power, False, self.entry_time]
        if not self.revealed:   # dice.md section 3: only orders before the reveal feed K_T
            self.digests.append(d)
        self.n_orders += 1

    def reveal(self, body):
        _check_keys(body, ["turn", "secret"], ["beacon"])
        t = self._open_turn(body, "reveal")
        if self.revealed:
            raise _Bad("turn %d is already revealed" % t)
        if not is_hex64(body["secret"]):
            raise _Bad("secret is not 64 lowercase hex digits")
        if self.paired() and self.pending is None:
            raise _Bad("turn %d is revealed with no orders waiting for their dice: the secret is "
                       "revealed by the stage-1 message it keys" % t)
        secret = bytes.fromhex(body["secret"])
        c = commitment(self.match, t, secret)
        if c != self.commit:
            raise _Bad("secret does not match the commitment of turn %d: SHA-256 gives %s, "
                       "turn_open committed to %s" % (t, c.hex(), self.commit.hex()))
        randomness = None
        if self.beacon is None and "beacon" in body:
            raise _Bad("a beacon round in a match that names no beacon")
        if self.beacon is not None:
            if self.format == LOG_FORMAT_V1:
                raise _Bad("a format 1 log cannot name a beacon")
            if "beacon" not in body:
                raise _Bad("the reveal has no beacon round, but the match takes every turn key "
                           "from the %s beacon" % self.beacon["name"])
            b = body["beacon"]
            _check_keys(b, ["round", "signature"], what="beacon")
            if not _is_int(b["round"]) or b["round"] < 1:
                raise _Bad("beacon round is not a positive whole number")
            if not isinstance(b["signature"], str) \
                    or re.fullmatch(r"[0-9a-f]{96}", b["signature"]) is None:
                raise _Bad("the signature of beacon round %r is not 48 bytes of lowercase hex"
                           % (b["round"],))
            due = beacon_round_after(self.beacon["genesis_time"], self.beacon["period"],
                                     time_ms(self.pending[4]))
            if b["round"] != due:
                raise _Bad("beacon round %d is not the first due after the orders of entry %d "
                           "were logged, which is round %d" % (b["round"], self.pending[0], due))
            randomness = beacon_randomness(b["signature"])
            self.beacon_rounds += 1
        self.revealed = True
        self.k_turn = turn_key(secret, self.match, t, key_order(self.digests, self.format),
                               randomness)
        if self.pending is not None:
            self.pending[3] = True

    def adjudication(self, body):
        # log.md kinds table: the result of one accepted message. Its state
        # hash can only be checked by replaying the rules engine
        # (`adjutant verify`); here only its shape and turn are checked.
        _check_keys(body, ["turn", "power", "round", "stage", "events", "state"])
        self._open_turn(body, "adjudication")
        _check_string(body["power"], "power")
        if not _is_int(body["round"]) or body["round"] < 1:
            raise _Bad("round %r is not a positive integer" % (body["round"],))
        if body["stage"] not in (0, 1, 2) or not _is_int(body["stage"]):
            raise _Bad("stage %r is not 0 (standing orders), 1 or 2" % (body["stage"],))
        if not isinstance(body["events"], list):
            raise _Bad("events is not a list")
        for i, e in enumerate(body["events"]):
            _check_string(e, "events[%d]" % i)
        if not is_hex64(body["state"]):
            raise _Bad("state is not 64 lowercase hex digits")
        if self.paired():
            p = self.pending
            if p is None:
                raise _Bad("an adjudication with no orders waiting for it: each adjudication "
                           "follows its own order entry")
            if p[1] != body["turn"] or p[2] != body["power"]:
                raise _Bad("the adjudication is of %s in dice turn %d, but the orders waiting "
                           "(entry %d) are %s's in dice turn %d"
                           % (body["power"], body["turn"], p[0], p[2], p[1]))
            if p[3] != (body["stage"] == 1):
                if p[3]:
                    raise _Bad("stage %d orders revealed the turn's secret: only a stage-1 "
                               "message has dice" % body["stage"])
                raise _Bad("a stage-1 adjudication whose orders (entry %d) did not reveal the "
                           "turn: its dice must be keyed by them" % p[0])
            self.pending = None
        # Left to `adjutant verify` (it needs the rules engine): that these
        # events, this round and stage and this state are what the orders give.

    def received(self, body):
        # log.md kinds table: a mail message the daemon handled. It feeds
        # neither the dice nor the state; only its shape is checked.
        _check_keys(body, ["mail_sha256", "from_hash", "outcome"],
                    ["message_id", "power", "command", "errors"])
        if "message_id" in body:
            _check_string(body["message_id"], "message_id")
        for k in ("mail_sha256", "from_hash"):
            if not is_hex64(body[k]):
                raise _Bad("%s is not 64 lowercase hex digits" % k)
        if body["outcome"] not in ("processing", "accepted", "rejected", "command",
                                   "refused", "bounce"):
            raise _Bad("outcome %r is not a known outcome" % (body["outcome"],))
        for k in ("power", "command"):
            if k in body:
                _check_string(body[k], k)
        if "errors" in body:
            if not isinstance(body["errors"], list):
                raise _Bad("errors is not a list")
            for i, e in enumerate(body["errors"]):
                _check_string(e, "errors[%d]" % i)

    def welcome(self, body):
        _check_keys(body, ["powers"])
        if not isinstance(body["powers"], list):
            raise _Bad("powers is not a list")
        for i, p in enumerate(body["powers"]):
            _check_string(p, "powers[%d]" % i)

    def deadline(self, body):
        # log.md kinds table: a deadline set, reminder, late notice or no-orders pass of
        # one stage. It feeds neither the dice nor the state.
        _check_keys(body, ["round", "power", "stage", "due", "event"])
        if not isinstance(body["round"], int) or isinstance(body["round"], bool) \
                or body["round"] < 0:
            raise _Bad("round is not a whole number")
        _check_string(body["power"], "power")
        if body["stage"] not in (1, 2) or isinstance(body["stage"], bool):
            raise _Bad("deadline stage %r is not 1 or 2" % (body["stage"],))
        _check_string(body["due"], "due")
        if not _rfc3339(body["due"]):
            raise _Bad("deadline due %r is not an RFC 3339 time" % (body["due"],))
        if body["event"] not in ("set", "reminder", "late", "passed"):
            raise _Bad("deadline event %r is not set, reminder, late or passed" % (body["event"],))

    def _check_power(self, power):
        _check_string(power, "power")
        if self.powers and power not in self.powers:
            raise _Bad("%r is not a power of this match; its players are %s"
                       % (power, ", ".join(self.powers)))

    def organiser(self, body, seq):
        # log.md kind `organiser`: an organiser's action, checked against the
        # match so far (pause/resume alternate, nothing but a ruling after the
        # end, the fields each action takes).
        fields = {"pause": ([], []), "resume": ([], []),
                  "extend": (["power", "due"], []),
                  "replace": (["power", "name"], []),
                  "absent": (["power", "from", "until", "absence"], []),
                  "forfeit": ([], ["power", "side"]), "resign": ([], ["power", "side"]),
                  "ruling": (["entry"], []),
                  "rollback": (["entry"], ["turn", "secret"]),
                  "draw": ([], []),
                  "upgrade": (["to_version", "from_state", "to_state"], ["from_version"]),
                  "reveal_bids": ([], [])}
        _check_keys(body, ["organiser", "via", "action"],
                    ["power", "side", "name", "due", "from", "until", "absence", "entry",
                     "turn", "secret", "from_version", "to_version", "from_state", "to_state",
                     "text", "mail_sha256"])
        _check_string(body["organiser"], "organiser")
        if not body["organiser"].strip():
            raise _Bad("an organiser entry must name its organiser")
        if body["via"] not in ("mail", "server"):
            raise _Bad("via %r: an organiser acts by mail or on the server" % (body["via"],))
        if "mail_sha256" in body:
            if body["via"] != "mail":
                raise _Bad("a mail hash on an organiser entry that did not come by mail")
            if not is_hex64(body["mail_sha256"]):
                raise _Bad("mail_sha256 is not 64 lowercase hex digits")
        action = body["action"]
        if action not in fields:
            raise _Bad("organiser action %r is not one of %s" % (action, ", ".join(fields)))
        if self.ended is not None and action != "ruling":
            raise _Bad("%s after the match ended at entry %d: only a ruling may follow the end"
                       % (action, self.ended))
        required, optional = fields[action]
        for f in ("power", "side", "name", "due", "from", "until", "absence", "entry", "turn",
                  "secret", "from_version", "to_version", "from_state", "to_state"):
            if f in body and f not in required and f not in optional:
                raise _Bad("an organiser's %s takes no %s" % (action, f))
            if f not in body and f in required:
                raise _Bad("an organiser's %s needs %s" % (action, f))
        for f in ("side", "name", "due", "from", "until", "absence", "text"):
            if f in body:
                _check_string(body[f], f)
        if "power" in body:
            self._check_power(body["power"])
        if action == "pause":
            if self.paused is not None:
                raise _Bad("pause while the match is paused since entry %d" % self.paused)
            self.paused = seq
        elif action == "resume":
            if self.paused is None:
                raise _Bad("resume while the match is not paused")
            self.paused = None
        elif action == "extend":
            due = _time_ms(body["due"], "due")
            if due <= _time_ms(self.entry_time, "time"):
                raise _Bad("an extended deadline must be later than the entry that sets it")
        elif action == "replace":
            if not body["name"].strip():
                raise _Bad("a replacement player needs a name")
            self.out = [p for p in self.out if p != body["power"]]
        elif action == "absent":
            if _time_ms(body["from"], "from") >= _time_ms(body["until"], "until"):
                raise _Bad("an absence must end after it begins")
            if body["absence"] not in ("extend", "play"):
                raise _Bad("absence %r is not extend or play" % (body["absence"],))
        elif action in ("forfeit", "resign"):
            if ("power" in body) == ("side" in body):
                raise _Bad("an organiser's %s names a power or a side, exactly one" % action)
            if "power" in body:
                if body["power"] in self.out:
                    raise _Bad("%s has already forfeited or resigned" % body["power"])
                self.out.append(body["power"])
            else:
                if not body["side"].strip():
                    raise _Bad("the side that ends the match must be named")
                if self.paired() and self.pending is not None:
                    raise _Bad("the match ends while the orders of entry %d wait for their "
                               "adjudication" % self.pending[0])
                self.ended = seq
                self.paused = None
        elif action == "upgrade":
            # log.md "Rules version": from the version the match is at to a
            # later one; the two digests are the engine's to check.
            for f in ("from_version", "to_version"):
                if f in body and (not _is_int(body[f]) or body[f] < 1):
                    raise _Bad("%s is not a positive whole number" % f)
            for f in ("from_state", "to_state"):
                if not is_hex64(body[f]):
                    raise _Bad("%s is not 64 lowercase hex digits" % f)
            if body.get("from_version") != self.version:
                raise _Bad("an upgrade from rules version %s, but the match is at %s"
                           % (body.get("from_version", "none recorded"),
                              "none recorded (replayed as 1)" if self.version is None
                              else self.version))
            floor = 1 if self.version is None else self.version + 1
            if body["to_version"] < floor:
                raise _Bad("an upgrade to rules version %d: it must be %d or later"
                           % (body["to_version"], floor))
            if self.paired() and self.pending is not None:
                raise _Bad("an upgrade while the orders of entry %d wait for their adjudication"
                           % self.pending[0])
            self.version = body["to_version"]
            self.upgraded = seq
        elif action == "reveal_bids":
            # log.md: the sealed bids revealed at their deadline; the bid
            # reveal entry comes next.
            if self.bid_open is None or self.bid_revealed is not None:
                raise _Bad("an organiser's reveal_bids while no sealed bids wait for their reveal")
            self.reveal_due = seq
        elif action == "draw":
            # log.md: the organisers adjudicate a draw, which ends the match.
            if self.paired() and self.pending is not None:
                raise _Bad("the match ends while the orders of entry %d wait for their "
                           "adjudication" % self.pending[0])
            self.ended = seq
            self.paused = None
        elif action == "rollback":
            e = body["entry"]
            if not _is_int(e) or (e != 1 and e not in self.positions):
                raise _Bad("a rollback to entry %r, which is not a position of the match's current "
                           "line (entry 1, the start, or an adjudication not undone by an earlier "
                           "rollback)" % (e,))
            if self.paired() and self.pending is not None:
                raise _Bad("a rollback while the orders of entry %d wait for their adjudication"
                           % self.pending[0])
            # log.md "Rules version": the positions before an upgrade were
            # played by an older version; a rollback cannot cross it.
            if self.upgraded is not None and e < self.upgraded:
                raise _Bad("a rollback to entry %d, before the upgrade at entry %d: a rollback "
                           "cannot cross an upgrade" % (e, self.upgraded))
            # dice.md: a rollback reveals the open turn if it is not revealed,
            # so no die of it can be rolled again in secret.
            unrevealed = self.turn and not self.revealed
            if unrevealed:
                if "turn" not in body or "secret" not in body or body["turn"] != self.turn:
                    raise _Bad("a rollback while dice turn %d is not revealed must reveal it "
                               "(turn %d and its secret)" % (self.turn, self.turn))
                if not is_hex64(body["secret"]):
                    raise _Bad("the rollback's secret is not 64 lowercase hex digits")
                if commitment(self.match, self.turn, bytes.fromhex(body["secret"])) != self.commit:
                    raise _Bad("the rollback's secret does not match turn %d's commitment"
                               % self.turn)
                self.revealed = True
            elif "turn" in body or "secret" in body:
                raise _Bad("a rollback reveals a turn only when the open turn is not revealed")
            self.positions = [p for p in self.positions if p <= e]
        else:  # ruling
            e = body["entry"]
            if not _is_int(e) or e < 1 or e >= seq:
                raise _Bad("a ruling about entry %r, which is not an earlier entry of this log"
                           % (e,))
            if not body.get("text", "").strip():
                raise _Bad("a ruling needs its text")

    def bid(self, body, seq):
        # log.md "Bids": open (or setup) right after the genesis, one sealed
        # bid per bidder, then the reveal, whose result is recomputed here.
        step = body.get("step")
        fields = {"open": (["bidders", "side", "commitment"], []),
                  "setup": (["money"], []),
                  "sealed": (["bidder", "commitment"], []),
                  "reveal": (["secret", "bids"], ["tie", "winner"])}
        if step not in fields:
            raise _Bad("bid step %r is not open, sealed, reveal or setup" % (step,))
        required, optional = fields[step]
        _check_keys(body, ["step"] + required, optional)
        if step in ("open", "setup"):
            if seq != 2:
                raise _Bad("a bid %s entry comes right after the genesis (entry 2), not at entry %d"
                           % (step, seq))
            if step == "setup":
                money = body["money"]
                if not isinstance(money, list) or not money:
                    raise _Bad("a bid setup entry needs money")
                seen = []
                for m in money:
                    _check_keys(m, ["side", "ipcs"], what="money")
                    side = _check_string(m["side"], "side")
                    if not side.strip() or side in seen:
                        raise _Bad("setup money for %r is unnamed or given twice" % side)
                    if not _is_int(m["ipcs"]) or not 0 <= m["ipcs"] <= MASK32:
                        raise _Bad("setup money of %s is not a whole number" % side)
                    seen.append(side)
                return
            bidders = body["bidders"]
            if not isinstance(bidders, list) or len(bidders) < 2:
                raise _Bad("a bid needs at least two bidders")
            for i, b in enumerate(bidders):
                if not isinstance(b, str) or not b.strip() or b in bidders[:i]:
                    raise _Bad("bidder %r is empty or listed twice" % (b,))
            if body["side"] not in bidders:
                raise _Bad("the side the lower bid takes, %r, is none of the bidders" % (body["side"],))
            if not is_hex64(body["commitment"]):
                raise _Bad("the bid commitment is not 64 lowercase hex digits")
            self.bid_open = [bidders, body["side"], bytes.fromhex(body["commitment"])]
            return
        if self.bid_open is None:
            raise _Bad("a bid %s entry, but no bid is open" % step)
        if self.bid_revealed is not None:
            raise _Bad("a bid %s entry after the bids were revealed at entry %d"
                       % (step, self.bid_revealed))
        bidders, _, bid_commit = self.bid_open
        if step == "sealed":
            bidder = body["bidder"]
            if bidder not in bidders:
                raise _Bad("%r is not a bidder" % (bidder,))
            if any(b == bidder for b, _ in self.bid_sealed):
                raise _Bad("%s already sealed a bid" % bidder)
            if not is_hex64(body["commitment"]):
                raise _Bad("the sealed bid's commitment is not 64 lowercase hex digits")
            self.bid_sealed.append([bidder, bytes.fromhex(body["commitment"])])
            return
        # reveal
        if not is_hex64(body["secret"]):
            raise _Bad("the bid secret is not 64 lowercase hex digits")
        secret = bytes.fromhex(body["secret"])
        if bid_commitment(self.match, secret) != bid_commit:
            raise _Bad("the bid secret does not match the bid's commitment")
        bids = body["bids"]
        if not isinstance(bids, list):
            raise _Bad("bids is not a list")
        sealed = dict((b, c) for b, c in self.bid_sealed)
        expected = [b for b in bidders if b in sealed]
        listed = []
        for b in bids:
            _check_keys(b, ["bidder", "ipcs"], what="bid")
            if not _is_int(b["ipcs"]) or not 0 <= b["ipcs"] <= MASK32:
                raise _Bad("a bid of %r IPCs" % (b["ipcs"],))
            listed.append(b["bidder"])
        if listed != expected:
            raise _Bad("the reveal lists the bids of %s, but %s sealed bids (in the bidders' order)"
                       % (listed, expected))
        for b in bids:
            c = bid_sealed(self.match, b["bidder"], b["ipcs"],
                           bid_salt(self.match, secret, b["bidder"]))
            if c != sealed[b["bidder"]]:
                raise _Bad("%s revealed %d IPCs, which do not open its sealed bid"
                           % (b["bidder"], b["ipcs"]))
        winner, tie = None, None
        if bids:
            low = min(b["ipcs"] for b in bids)
            tied = [b["bidder"] for b in bids if b["ipcs"] == low]
            if len(tied) == 1:
                winner = tied[0]
            else:
                tie = bid_tie_die(self.match, secret, [c for _, c in self.bid_sealed], len(tied))
                winner = tied[tie - 1]
        if body.get("tie") != tie:
            raise _Bad("the tie-break die is %r, but the bids give %r" % (body.get("tie"), tie))
        if body.get("winner") != winner:
            raise _Bad("the reveal names %r as the winner, but the bids make it %r"
                       % (body.get("winner"), winner))
        self.bid_revealed = seq

    def escalation(self, body):
        # log.md kind `escalation`: a power missed too many deadlines.
        _check_keys(body, ["power", "missed", "policy"])
        if self.ended is not None:
            raise _Bad("an escalation after the match ended at entry %d" % self.ended)
        self._check_power(body["power"])
        if not _is_int(body["missed"]) or body["missed"] < 1:
            raise _Bad("an escalation after %r missed deadlines" % (body["missed"],))
        if body["policy"] not in ("standing", "forfeit"):
            raise _Bad("escalation policy %r is not standing or forfeit" % (body["policy"],))
        if body["policy"] == "forfeit" and body["power"] not in self.out:
            self.out.append(body["power"])

    def dice(self, body):
        _check_keys(body, ["turn", "rolls"])
        t = self._open_turn(body, "dice")
        if not self.revealed:
            raise _Bad("dice for turn %d before its reveal" % t)
        if self.paired() and (self.pending is None or not self.pending[3]):
            raise _Bad("dice outside a stage-1 message: dice belong to the message whose orders "
                       "revealed the turn")
        rolls = body["rolls"]
        if not isinstance(rolls, list):
            raise _Bad("rolls is not a list")
        for gi, group in enumerate(rolls):
            what = "rolls[%d]" % gi
            _check_keys(group, ["label", "sides", "values"], what=what)
            label = _check_string(group["label"], what + ".label")
            problem = label_problem(label)
            if problem:
                raise _Bad("%s: %s" % (what, problem))
            sides = group["sides"]
            if not _is_int(sides) or not 2 <= sides <= 65536:
                raise _Bad("%s: sides %r is not an integer in 2..65536" % (what, sides))
            values = group["values"]
            if not isinstance(values, list):
                raise _Bad("%s: values is not a list" % what)
            if not values:
                raise _Bad("%s: a group has at least one value" % what)
            stream = None
            if self.rederive:
                stream = self.streams.get(label)
                if stream is None:
                    stream = self.streams[label] = LabelStream(self.k_turn, label)
            for vi, v in enumerate(values):
                if not _is_int(v) or not 1 <= v <= sides:
                    raise _Bad("%s: value %d is %r, not an integer in 1..%d" % (what, vi, v, sides))
                if stream is not None:
                    index = stream.drawn
                    expected = stream.roll(sides)
                    if v != expected:
                        raise _Bad("%s: die %d of label %r in turn %d (d%d) is %d in the log, "
                                   "re-derived %d" % (what, index, label, t, sides, v, expected))
                else:
                    index = self.indices.get(label, 0)
                    self.indices[label] = index + 1
                self.dump.append((t, label, index, sides, v))
                self.n_dice += 1

    # -- the whole file -----------------------------------------------------
    def run(self, data):
        """Verify the bytes of a log; raise LogError at the first failure."""
        pos, seq = 0, 0
        while pos < len(data):
            seq += 1
            nl = data.find(b"\n", pos)
            if nl < 0:
                raise LogError(seq, pos, "torn tail: the last line (%d bytes) does not end with "
                                         "\\n (an interrupted write?)" % (len(data) - pos))
            try:
                obj, h = self.check_line(seq, data[pos:nl])
                self.entry_time = obj["time"]
                self.check_entry(seq, obj)
            except _Bad as e:
                raise LogError(seq, pos, str(e))
            except (ValueError, OverflowError) as e:
                raise LogError(seq, pos, "invalid value: %s" % e)
            self.prev_hash = h
            self.last_time = obj["time"]
            self.hashes.append(h)
            pos = nl + 1
        if seq == 0:
            raise LogError(1, 0, "empty log: no genesis entry")
        return seq


def _plausible_time(t):
    """A real calendar date and time (a leap second allowed), as adjutant's
    parser demands: 2026-11-31 is no date."""
    import datetime
    m = TIME_RE.fullmatch(t)
    y, mo, d, h, mi, s = (int(g) for g in m.groups())
    try:
        datetime.datetime(y, mo, d, h, mi, min(s, 59))
    except ValueError:
        return False
    return s <= 60


# docs/log.md deadline `due`: an RFC 3339 time (any offset)
RFC3339_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


def _time_ms(t, what):
    """Milliseconds since 1970 of an RFC 3339 time (log.md organiser entries)."""
    import datetime
    if not isinstance(t, str) or not _rfc3339(t):
        raise _Bad("%s %r is not an RFC 3339 time" % (what, t))
    m = RFC3339_RE.fullmatch(t)
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    frac = m.group(7) or ""
    ms = int((frac[1:] + "000")[:3]) if frac else 0
    dt = datetime.datetime(y, mo, d, h, mi, min(s, 59), tzinfo=datetime.timezone.utc)
    off = m.group(8)
    minutes = 0
    if off not in ("Z", "z"):
        minutes = (int(off[1:3]) * 60 + int(off[4:6])) * (1 if off[0] == "+" else -1)
    return (int(dt.timestamp()) - minutes * 60) * 1000 + ms


def _rfc3339(t):
    m = RFC3339_RE.fullmatch(t)
    if m is None:
        return False
    import datetime
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    try:
        datetime.datetime(y, mo, d, h, mi, min(s, 59))
    except ValueError:
        return False
    return s <= 60


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------

# Unicode categories that act on the display instead of showing: controls
# (escape sequences, \r, \n), format characters (the bidirectional overrides
# U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C, ...), line and
# paragraph separators, and surrogates (which cannot even be encoded).
_HIDDEN = ("Cc", "Cf", "Zl", "Zp", "Cs")
_JOINERS = ("\u200c", "\u200d")   # emoji and several scripts need them; they move nothing


def printable(text):
    """`text` from a log, safe to print: every character of _HIDDEN (but the
    joiners) is shown as <U+XXXX>, so that a log cannot print a line of its
    own (a fake "OK") or reorder what the reader sees. Used at every print
    site that shows the log's text."""
    if text.isprintable():   # no character of _HIDDEN: the common case
        return text
    return "".join("<U+%04X>" % ord(c)
                   if unicodedata.category(c) in _HIDDEN and c not in _JOINERS else c
                   for c in text)


def cmd_verify(path, allow_fixed, dump, head):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        print("cannot read %s: %s" % (path, e), file=sys.stderr)
        return 1
    v = Verifier()
    try:
        entries = v.run(data)
    except LogError as e:
        print(printable(e.line()), file=sys.stderr)
        return 1
    if head is not None:
        head = head.strip()
        if head not in v.hashes:
            print("head %s is not the hash of any entry of the log" % head, file=sys.stderr)
            return 1
    fixed = v.dice_mode == "fixed"
    if fixed:
        print("WARNING: genesis says \"dice\":\"fixed\": this log was made by a test build; its "
              "%d dice are scripted test dice that prove nothing and were NOT re-derived "
              "(all other checks passed)." % v.n_dice, file=sys.stderr)
        if not allow_fixed:
            print('entry 1 (line 1, byte 0): fixed (scripted) dice; refusing without '
                  '--allow-fixed-dice', file=sys.stderr)
            return 1
    if dump:
        out = ["%d\t%s\t%d\t%d\t%d\n" % (t, printable(label), i, n, x)
               for t, label, i, n, x in v.dump]
        sys.stdout.write("".join(out))
        return 0
    print("OK %s" % path)
    print("match:   %s" % printable(v.match))
    print("entries: %d" % entries)
    print("turns:   %d" % v.turn)
    print("orders:  %d" % v.n_orders)
    if fixed:
        print("dice:    %d (FIXED test dice, not verified, prove nothing)" % v.n_dice)
    else:
        print("dice:    %d re-derived and verified" % v.n_dice)
    print("head:    %s" % v.hashes[-1])
    if v.pending is not None:
        print("the orders of entry %d (%s) have no adjudication yet (the server stopped between "
              "the two; it completes them when it opens the match)" % (v.pending[0], v.pending[2]))
    if v.format == LOG_FORMAT_V1:
        print("NOTE: format %s: its order entries need no adjudication, so a forging server "
              "could have fed a turn key extra order entries; a format %s log rules that out "
              "(docs/log.md, Format versions)" % (LOG_FORMAT_V1, LOG_FORMAT))
    if v.beacon_rounds:
        print("left to `adjutant verify`: the BLS signatures of the %d beacon rounds (this tool "
              "checks each round's number and derives its randomness, but has no pairing code)"
              % v.beacon_rounds)
    if v.game is not None:
        print("left to `adjutant verify` (it needs the rules engine): that each adjudication's "
              "events, round, stage and state are what its orders give")
    else:
        print("the log names no game: its adjudications are the server's word, checked by no "
              "rules engine")
    if head is not None:
        print("head %s found at entry %d" % (head, v.hashes.index(head) + 1))
    return 0


def cmd_derive(argv):
    p = argparse.ArgumentParser(
        prog="verify_dice.py derive",
        description="Print the first K dice of LABEL's stream under turn key K_T "
                    "(docs/dice.md sections 5-6), space-separated on one line.")
    p.add_argument("--turn-key", required=True, help="K_T as 64 lowercase hex digits")
    p.add_argument("--label", required=True)
    p.add_argument("--sides", required=True, type=int, help="N, 2..65536")
    p.add_argument("--count", required=True, type=int, help="K >= 0")
    a = p.parse_args(argv)
    if not is_hex64(a.turn_key):
        p.error("--turn-key must be 64 lowercase hex digits")
    problem = label_problem(a.label)
    if problem:
        p.error(problem)
    if not 2 <= a.sides <= 65536:
        p.error("--sides must be in 2..65536")
    if a.count < 0:
        p.error("--count must be >= 0")
    dice = derive_dice(bytes.fromhex(a.turn_key), a.label, a.sides, a.count)
    print(" ".join(map(str, dice)))
    return 0


# RFC 8439 test vectors (Appendix A.1 #1-#3, section 2.3.2, section 2.4.2).
RFC_BLOCK_VECTORS = [
    ("A.1 #1", "00" * 32, 0, "00" * 12,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"),
    ("A.1 #2", "00" * 32, 1, "00" * 12,
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
     "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"),
    ("A.1 #3", "00" * 31 + "01", 1, "00" * 12,
     "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
     "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"),
    ("2.3.2", "".join("%02x" % i for i in range(32)), 1, "000000090000004a00000000",
     "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
     "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"),
]
RFC_ENCRYPT_VECTOR = (
    "2.4.2", "".join("%02x" % i for i in range(32)), 1, "000000000000004a00000000",
    b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
    b"for the future, sunscreen would be it.",
    "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
    "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
    "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
    "5af90bbf74a35be6b40b8eedf2785e42874d",
)


def _dice_md_vectors_section():
    """Return the text of the "Test vectors" section of docs/dice.md, or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "docs", "dice.md")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"^## Test vectors\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else None


def cmd_self_test():
    ok = True

    def report(name, good, detail=""):
        nonlocal ok
        ok = ok and good
        print("%s  %s%s" % ("PASS" if good else "FAIL", name, (": " + detail) if detail else ""))

    got = _qr(0x11111111, 0x01020304, 0x9B8D6F43, 0x01234567)
    want = (0xEA2A92F4, 0xCB1CF8CE, 0x4581472E, 0x5881C4BB)
    report("RFC 8439 2.1.1 quarter round", got == want)
    for name, key, ctr, nonce, want in RFC_BLOCK_VECTORS:
        got = chacha20_block(bytes.fromhex(key), ctr, bytes.fromhex(nonce)).hex()
        report("RFC 8439 %s ChaCha20 block" % name, got == want, "" if got == want else got)
    name, key, ctr, nonce, pt, want = RFC_ENCRYPT_VECTOR
    got = chacha20_encrypt(bytes.fromhex(key), ctr, bytes.fromhex(nonce), pt).hex()
    report("RFC 8439 %s ChaCha20 encryption" % name, got == want, "" if got == want else got)

    # the stream reader: words are little-endian reads of the keystream
    k = bytes(range(32))
    ks = b"".join(chacha20_block(k, i, bytes(12)) for i in range(3))
    s = LabelStream.__new__(LabelStream)
    s.key_words, s.counter, s.words, s.pos, s.drawn = struct.unpack("<8I", k), 0, [], 0, 0
    words = [s.next_word() for _ in range(48)]
    report("stream words = little-endian u32s of the keystream, across blocks",
           words == list(struct.unpack("<48I", ks)))

    # section 6 rejection sampling on scripted words (d6: zone = 4294967292)
    s = LabelStream(bytes(32), "self-test")
    s.words, s.pos, s.counter = [2**32 - 1, 4294967292, 4294967291, 0, 2**32 - 1, 2**32 - 1], 0, 1
    got = [s.roll(6), s.roll(6), s.roll(65536)]
    report("rejection sampling (reject w >= zone, value = w mod N + 1)",
           got == [4294967291 % 6 + 1, 1, 65536] and s.drawn == 3)

    # docs/log.md "Bids": the values src/dice/bid.rs's test pins
    m, s = "league7-classic-01", bytes([7] * 32)
    c_axis = bid_sealed(m, "Axis", 9, bid_salt(m, s, "Axis"))
    c_allies = bid_sealed(m, "Allies", 9, bid_salt(m, s, "Allies"))
    got = [bid_commitment(m, s).hex(), bid_salt(m, s, "Axis").hex(), c_axis.hex(),
           bid_tie_die(m, s, [c_allies, c_axis], 2)]
    want = ["9f6128b6c76901b22dbb4854b67c501c5afe48399c8be2dfbb51373e23ade1c6",
            "eb692e60d4290fb8babe403e6c4904bfcbed8a252733e9dff9e964fde49e10f7",
            "ae706d3ee7ac61ccc816e80ab5d08f2f5c4a9f8950ffdfbb39c5a7ea6c93d173", 2]
    report("docs/log.md bid vectors (commitment, salt, sealed bid, tie-break die)", got == want,
           "" if got == want else repr(got))

    section = _dice_md_vectors_section()
    if section is None:
        report("docs/dice.md Test vectors section", False, "section not found")
    elif "VECTORS_PLACEHOLDER" in section:
        print("SKIP  docs/dice.md test vectors: the section still says VECTORS_PLACEHOLDER")
    else:
        try:
            for name, good, detail in dice_md_vector_checks(section):
                report("docs/dice.md " + name, good, detail)
        except (KeyError, ValueError) as e:
            report("docs/dice.md test vectors", False, "malformed or missing value: %r" % (e,))
    print("self-test %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def parse_vectors(section):
    """The ```vectors block of dice.md "Test vectors": `name = value` lines.
    Values of names ending in _canonical are JSON strings; others are raw."""
    m = re.search(r"^```vectors\s*$(.*?)^```", section, re.M | re.S)
    if not m:
        raise ValueError("no ```vectors block")
    vec = {}
    for line in m.group(1).splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(" = ")
        if not sep:
            raise ValueError("not a `name = value` line: %r" % line)
        name = name.strip()
        if name in vec:
            raise ValueError("duplicate vector %r" % name)
        vec[name] = json.loads(value) if name.endswith("_canonical") else value
    return vec


def dice_md_vector_checks(section):
    """Recompute every value of dice.md "Test vectors" from its inputs with
    the functions above (sections 1-6). Yields (name, passed, detail).
    A name this tool does not know fails, so new vectors cannot be ignored."""
    try:
        vec = parse_vectors(section)
    except ValueError as e:
        yield ("test vectors", False, str(e))
        return
    checked = set()

    def check(name, got):
        checked.add(name)
        want = vec[name]
        return (name, got == want, "" if got == want else "computed %s" % got)

    match, turn = vec["match"], int(vec["turn"])
    secret = bytes.fromhex(vec["secret"])
    checked.update(["match", "turn", "secret"])
    if "commitment" in vec:                                       # section 1
        yield check("commitment", commitment(match, turn, secret).hex())
    digests, i = [], 1
    while "order_%d_power" % i in vec:                            # section 2
        power, canonical = vec["order_%d_power" % i], vec["order_%d_canonical" % i]
        checked.update(["order_%d_power" % i, "order_%d_canonical" % i])
        d = order_digest(match, turn, power, canonical)
        digests.append(d)
        if "order_%d_digest" % i in vec:
            yield check("order_%d_digest" % i, d.hex())
        i += 1
    k_turn = turn_key(secret, match, turn, key_order(digests, LOG_FORMAT))   # section 3
    if "turn_key" in vec:
        yield check("turn_key", k_turn.hex())
    if "turn_key_v1" in vec:
        yield check("turn_key_v1", turn_key(secret, match, turn,
                                            key_order(digests, LOG_FORMAT_V1)).hex())
    if "turn_key_without_orders" in vec:
        yield check("turn_key_without_orders", turn_key(secret, match, turn, []).hex())
    if "beacon_signature" in vec:                                 # section 3, Beacon
        checked.update(["beacon_round", "beacon_signature"])
        b = beacon_randomness(vec["beacon_signature"])
        yield check("beacon_randomness", b.hex())
        yield check("turn_key_with_beacon",
                    turn_key(secret, match, turn, key_order(digests, LOG_FORMAT), b).hex())
    for name in vec:                                              # sections 4-6
        m = re.fullmatch(r"(label_\d+|rejection)_d(\d+)_x(\d+)", name)
        if m:
            prefix, sides, count = m.group(1), int(m.group(2)), int(m.group(3))
            if prefix == "rejection":
                key, label = bytes.fromhex(vec["rejection_turn_key"]), vec["rejection_label"]
                checked.update(["rejection_turn_key", "rejection_label"])
                # the vector exists to exercise the rejection branch: its first
                # word must be at or above the zone, so it is discarded
                zone = (1 << 32) - ((1 << 32) % sides)
                first = LabelStream(key, label).next_word()
                yield ("%s first word %d >= zone %d (rejected)" % (name, first, zone),
                       first >= zone, "")
            else:
                key, label = k_turn, vec[prefix]
                checked.add(prefix)
            yield check(name, " ".join(map(str, derive_dice(key, label, sides, count))))
        m = re.fullmatch(r"(label_\d+)_stream_key", name)
        if m:
            checked.add(m.group(1))
            yield check(name, label_key(k_turn, vec[m.group(1)]).hex())
    unknown = [n for n in vec if n not in checked]
    if unknown:
        yield ("unknown vector names (update the self-test)", False, ", ".join(unknown))


def receipt_orders(text):
    """The canonical orders from the text of a receipt's "orders as
    understood": line ends made LF, the receipt's four-space indentation
    removed when every line has it, one final newline."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and all(l.startswith("    ") or not l.strip() for l in lines):
        lines = [l[4:] for l in lines]
    return "".join(l + "\n" for l in lines)


def cmd_digest(argv):
    p = argparse.ArgumentParser(
        prog="verify_dice.py digest",
        description="Print the digest (docs/dice.md section 2) of the orders in FILE.")
    p.add_argument("match")
    p.add_argument("turn", type=int)
    p.add_argument("power")
    p.add_argument("file")
    a = p.parse_args(argv)
    if not 1 <= a.turn <= MASK32:
        p.error("TURN must be a dice turn, 1 or more")
    try:
        with open(a.file, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print("cannot read %s: %s" % (a.file, e), file=sys.stderr)
        return 1
    print(order_digest(a.match, a.turn, a.power, receipt_orders(text)).hex())
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "derive":
        return cmd_derive(argv[1:])
    if argv and argv[0] == "digest":
        return cmd_digest(argv[1:])
    if argv and argv[0] == "bid":
        if len(argv) != 5 or not argv[3].isdigit() or not is_hex64(argv[4]):
            print("usage: verify_dice.py bid MATCH BIDDER IPCS SALT (SALT: 64 lowercase hex digits)",
                  file=sys.stderr)
            return 2
        print(bid_sealed(argv[1], argv[2], int(argv[3]), bytes.fromhex(argv[4])).hex())
        return 0
    p = argparse.ArgumentParser(
        prog="verify_dice.py",
        description=__doc__.split("\nUsage\n")[0],
        epilog="Usage\n" + __doc__.split("\nUsage\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("log", nargs="?", metavar="LOG", help="match log to verify")
    p.add_argument("--allow-fixed-dice", action="store_true",
                   help='accept a log whose genesis says "dice":"fixed" (its dice are not checked)')
    p.add_argument("--dump", action="store_true",
                   help="after verifying, print every die as TURN\\tLABEL\\tINDEX\\tSIDES\\tVALUE")
    p.add_argument("--head", metavar="HEX", help="also require HEX to be the hash of some entry")
    p.add_argument("--self-test", action="store_true", help="run the built-in test vectors")
    a = p.parse_args(argv)
    if a.self_test:
        if a.log:
            p.error("--self-test takes no LOG")
        return cmd_self_test()
    if not a.log:
        p.error("give a LOG, derive ..., or --self-test")
    return cmd_verify(a.log, a.allow_fixed_dice, a.dump, a.head)


if __name__ == "__main__":
    sys.exit(main())
