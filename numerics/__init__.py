"""Exact and certified computation of the quantities the claims are about: the ground layer (it imports
nothing from ``theorems``). Import what you need from its modules -- ``numerics.backend`` (FLOAT,
mp_backend, torch_backend, arb_backend), ``numerics.mixture``, ``numerics.draws``, ``numerics.derivative``,
``numerics.errors`` -- the package itself imports nothing, so that no module of it depends on another
through the package."""
