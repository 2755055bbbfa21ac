"""The production Kafka consumer (``manage.py kafka_worker``).

``loop`` is the consumer loop (``KafkaWorker``); ``config`` its settings and start-up
checks; ``offsets`` which offsets may be committed; ``jobs`` the chores on stored jobs
(orphans, deferred re-runs); ``stall`` the per-partition stall detector; ``metrics`` the
worker's Prometheus series and endpoint.
"""
