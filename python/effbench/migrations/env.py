"""Alembic environment for the effbench result store. effbench runs the migrations itself when
it opens a store (effbench.store.db.open_store); the connection comes in through
config.attributes["connection"]."""

from alembic import context

from effbench.store.models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("effbench migrations are run by effbench.store.db.open_store")

context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
