"""Upload tokens: created by an admin command, shown once, stored as the SHA-256 of the secret.

A token is `ebt_` followed by 32 random bytes (URL-safe base64): with that much entropy a plain
SHA-256 is enough (a slow hash protects guessable passwords, not random secrets), and it lets
the server find a token by its hash with one indexed lookup."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import select

from ..store.db import Store, StoreError
from ..store.models import ApiToken

PREFIX = "ebt_"


@dataclass(frozen=True)
class Identity:
    """Who made a request: the token's id and name, and whether it may delete any run."""

    id: int
    name: str
    admin: bool


def hash_token(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def create_token(store: Store, name: str, admin: bool = False) -> str:
    """A new token for NAME; returns the secret, which is not kept anywhere."""
    name = name.strip()
    if not name:
        raise StoreError("a token needs a name")
    secret = PREFIX + secrets.token_urlsafe(32)
    with store.sessions.begin() as session:
        if session.scalar(select(ApiToken.id).where(ApiToken.name == name)) is not None:
            raise StoreError(f"a token named '{name}' exists already")
        session.add(ApiToken(name=name, token_hash=hash_token(secret), admin=admin,
                             created_at=_now()))
    return secret


def list_tokens(store: Store) -> list[dict]:
    with store.sessions() as session:
        return [{"id": t.id, "name": t.name, "admin": t.admin, "created_at": t.created_at,
                 "revoked_at": t.revoked_at}
                for t in session.scalars(select(ApiToken).order_by(ApiToken.id))]


def revoke_token(store: Store, name: str) -> None:
    """Revoked tokens stay in the table: the runs they uploaded still name their uploader."""
    with store.sessions.begin() as session:
        token = session.scalar(select(ApiToken).where(ApiToken.name == name))
        if token is None:
            raise StoreError(f"no token named '{name}'")
        if token.revoked_at is None:
            token.revoked_at = _now()


def verify_token(store: Store, secret: str | None) -> Identity | None:
    if not secret or not secret.startswith(PREFIX):
        return None
    with store.sessions() as session:
        token = session.scalar(select(ApiToken).where(
            ApiToken.token_hash == hash_token(secret), ApiToken.revoked_at.is_(None)))
        if token is None:
            return None
        return Identity(token.id, token.name, token.admin)
