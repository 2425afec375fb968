"""A bench run's scenes in worker processes on this machine (``local``) or as Ray tasks on a
cluster (``ray_driver``, ``ray_task``), from one typed run configuration (``config``) that
the command line builds once; ``episodes`` plays a share of them in the process it is in
(``reacthuman bench`` itself with one worker, and every worker).

A worker is ``python -m reacthuman.pool.worker JOB.json FD`` (``worker``): a process of its
own (Genesis once per process, a node graph on a DDS domain lent to it), which reads its job
and reports every score row on the pipe ``FD`` as it is written (``process``). Nothing
re-runs the command line and nothing polls another process's database.
"""

DEFAULT_GROUP_SIZE = 16  # scenes a Ray task plays (each task starts a worker process: ~10 s)
