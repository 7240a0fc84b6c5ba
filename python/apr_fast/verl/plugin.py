"""Registers the APR managers with verl under the name ``apr``.

Loaded by verl itself on ``import verl`` in every Ray process, through the ``verl.plugins``
entry point that apr-fast installs (``VERL_USE_EXTERNAL_PLUGINS`` governs it); importing it by
hand does the same. Then ``reward.reward_manager.name=apr`` (reward loop, verl >= 0.9) or
``reward_model.reward_manager=apr`` (legacy trainers) select the APR reward.
"""
from __future__ import annotations

NAME = "apr"


def register() -> None:
    """Registers the reward-loop manager and, where verl still has it, the legacy one."""
    from verl.experimental.reward_loop.reward_manager import register as register_loop

    from apr_fast.verl.manager import APRRewardManager

    register_loop(NAME)(APRRewardManager)
    try:
        from verl.workers.reward_manager import register as register_legacy
    except ImportError:  # pragma: no cover - removed in some verl versions
        return
    from apr_fast.verl.legacy import APRBatchRewardManager

    register_legacy(NAME)(APRBatchRewardManager)


register()
