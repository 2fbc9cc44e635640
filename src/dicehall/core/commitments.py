"""Per-throw commitments: a Merkle tree over per-throw secrets, openings, players' entropy.

A sealed table commits, before the game, to the root of a Merkle tree whose
leaves are per-throw secrets; throw k's faces are derived from its own secret
and the players' entropy for its batch. Publishing one throw's opening (its
secret and its Merkle path) proves that throw and says nothing of any other.

- **Secrets.** Throw k's secret is HMAC-SHA256(table seed, "throw-secret:k").
  The seed never leaves the server; it only saves storing each secret.
- **Tree.** Throws come in batches of `BATCH`; each batch is a perfect binary
  Merkle tree hashed as in RFC 6962 section 2.1 (leaf = SHA-256(0x00 || data),
  node = SHA-256(0x01 || left || right)), the leaf data being the throw's
  number (8 bytes, big-endian) and its 32-byte secret. The domain bytes keep a
  leaf from passing for a node (the second-preimage attack RFC 6962 closes).
- **Players' entropy.** Each seat may commit to a hash chain (Lamport 1981):
  a random x and `commit = SHA-256^CHAIN(x)`; its contribution to batch b is
  `SHA-256^(CHAIN-1-b)(x)`, checked by hashing it b+1 times. Commit first,
  reveal after every commitment is in: Blum's coin flipping by telephone
  (1981), run among all seats after the server's root is fixed.
- **Faces.** Batch b's entropy is SHA-256 over the batch root and every
  seat's contribution (absent ones marked as such); die d of throw k is
  HMAC-SHA256(secret_k, entropy || "k:d") reduced modulo the die's size (bias
  below 2**-59, as in `chance.derive_faces`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicehall.core.chance import Faces, Throw, derive_faces
from dicehall.core.errors import ChanceError

BATCH = 256
"""Throws per committed batch (a power of two: every tree is perfect)."""
DEPTH = BATCH.bit_length() - 1
CHAIN = 16
"""Batches a seat's hash chain can contribute to; later batches use the server's secrets alone."""
HASH_BYTES = 32


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def throw_secret(seed: bytes, k: int) -> bytes:
    return hmac.new(seed, f"throw-secret:{k}".encode(), hashlib.sha256).digest()


def leaf_hash(k: int, secret: bytes) -> bytes:
    return sha256(b"\x00" + k.to_bytes(8, "big") + secret)


def node_hash(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right)


class Batch:
    """One batch's Merkle tree, built from the table's seed (server side)."""

    def __init__(self, seed: bytes, number: int) -> None:
        self.number = number
        first = number * BATCH
        self.secrets = [throw_secret(seed, first + i) for i in range(BATCH)]
        level = [leaf_hash(first + i, s) for i, s in enumerate(self.secrets)]
        self.levels = [level]
        while len(level) > 1:
            level = [node_hash(level[i], level[i + 1]) for i in range(0, len(level), 2)]
            self.levels.append(level)

    @property
    def root(self) -> bytes:
        return self.levels[-1][0]

    def opening(self, k: int) -> Opening:
        i = k - self.number * BATCH
        path = []
        for level in self.levels[:-1]:
            path.append(level[i ^ 1])
            i //= 2
        return Opening(k, self.secrets[k - self.number * BATCH], tuple(path))


@dataclass(frozen=True)
class Opening:
    """What proves throw `throw`: its secret and the sibling hashes up to its batch's root."""

    throw: int
    secret: bytes
    path: tuple[bytes, ...]

    @property
    def batch(self) -> int:
        return self.throw // BATCH

    def root(self) -> bytes:
        """The root this opening hashes up to; it must equal the committed one."""
        node = leaf_hash(self.throw, self.secret)
        i = self.throw % BATCH
        for sibling in self.path:
            node = node_hash(sibling, node) if i & 1 else node_hash(node, sibling)
            i //= 2
        return node

    def faces(self, entropy: bytes, dice: Throw) -> Faces:
        return throw_faces(self.secret, self.throw, entropy, dice)

    def to_json(self) -> dict[str, Any]:
        return {
            "throw": self.throw,
            "secret": self.secret.hex(),
            "path": [p.hex() for p in self.path],
        }

    @classmethod
    def from_json(cls, data: object) -> Opening:
        """An opening from JSON; a malformed one raises ChanceError naming the field."""
        if not isinstance(data, dict):
            raise ChanceError(f"an opening is a JSON object; got {data!r}")
        k = data.get("throw")
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ChanceError(f"an opening's throw is a number from 0; got {k!r}")
        path = data.get("path")
        if not isinstance(path, list) or len(path) != DEPTH:
            raise ChanceError(f"throw {k}: an opening's path lists {DEPTH} hashes")
        return cls(
            k,
            hex_bytes(data.get("secret"), f"throw {k}: the secret"),
            tuple(hex_bytes(p, f"throw {k}: a path hash") for p in path),
        )


def hex_bytes(text: object, what: str, size: int = HASH_BYTES) -> bytes:
    """Bytes from a hex string of `size` bytes; anything else raises ChanceError naming `what`."""
    if isinstance(text, str) and len(text) == 2 * size:
        try:
            return bytes.fromhex(text)
        except ValueError:
            pass
    raise ChanceError(f"{what} must be {2 * size} hex digits; got {text!r}")


def throw_faces(secret: bytes, k: int, entropy: bytes, dice: Throw) -> Faces:
    """The faces of throw k from its secret and its batch's entropy."""
    return derive_faces(secret, f"{entropy.hex()}:{k}", dice)


# --- players' entropy ----------------------------------------------------------------


def chain_commit(x: bytes) -> bytes:
    """The commitment to a seat's hash chain: SHA-256 applied CHAIN times to x."""
    return _hash_times(x, CHAIN)


def chain_value(x: bytes, batch: int) -> bytes:
    """A seat's contribution to `batch`: SHA-256 applied CHAIN-1-batch times to x."""
    return _hash_times(x, CHAIN - 1 - batch)


def chain_checks(commit: bytes, batch: int, value: bytes) -> bool:
    """Whether `value` is the contribution to `batch` of the chain committed as `commit`."""
    return 0 <= batch < CHAIN and hmac.compare_digest(_hash_times(value, batch + 1), commit)


def _hash_times(data: bytes, times: int) -> bytes:
    for _ in range(times):
        data = sha256(data)
    return data


def batch_entropy(root: bytes, contributions: Sequence[bytes | None]) -> bytes:
    """A batch's entropy: its root and every seat's contribution, None for a seat that gave none."""
    parts = [b"dicehall-entropy", root]
    for value in contributions:
        parts.append(b"\x00" if value is None else b"\x01" + value)
    return sha256(b"".join(parts))


class SealedDice:
    """The dice of a sealed table: throw k from its own secret and its batch's entropy.

    The server holds the seed and builds each batch's tree when it is first
    needed; `entropy[b]` must be set (the batch's entropy round is over)
    before a throw of batch b.
    """

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.count = 0
        self.entropy: dict[int, bytes] = {}
        self._batches: dict[int, Batch] = {}

    def batch(self, number: int) -> Batch:
        found = self._batches.get(number)
        if found is None:
            found = self._batches[number] = Batch(self.seed, number)
        return found

    def root(self, number: int) -> bytes:
        return self.batch(number).root

    @property
    def next_batch(self) -> int:
        return self.count // BATCH

    def ready(self) -> bool:
        """Whether the next throw's batch has its entropy."""
        return self.next_batch in self.entropy

    def faces(self, k: int, dice: Throw) -> Faces:
        b = k // BATCH
        return throw_faces(self.batch(b).secrets[k % BATCH], k, self.entropy[b], dice)

    def throw(self, dice: Throw) -> Faces:
        if not self.ready():
            raise ChanceError(f"batch {self.next_batch} has no entropy yet: its round is open")
        faces = self.faces(self.count, dice)
        self.count += 1
        return faces

    def opening(self, k: int) -> Opening:
        return self.batch(k // BATCH).opening(k)
