"""The fault trials of scripts/faults.py, one module per trial or family of trials, above
their shared harness (issue #44, point 5: no module over 600 lines). Lower modules never
import higher ones: `servers` (this run's Redis, PostgreSQL and topology) < `rows` (the
site's games and rows, read and written in the runner's process) < `harness` (`Trial`,
`Table`, the checks of play) < the trials: `asgi_kills` (1, 6), `store_restarts` (2, 3),
`worker_and_beat` (4, 5), `accounts_redis_down` (7), `nginx_edge` (8), `connection_bound`
(9), `leaver_socket` (10). scripts/faults.py runs them in order, then trial 11 (no
traceback in the ASGI logs of the whole run). Imported with scripts/ on the path, as
scripts/faults.py runs (`from fault_trials import ...`), like its sibling scripts
`live_client` and `express_client`; this file imports nothing."""
