"""A test set's arrays compressed with LZ4 on PostgreSQL, not with its default pglz.

Publishing a problem stores tens of MB of arrays (expected outputs, what each known-wrong solution returned,
the benchmark's draws). pglz tried to compress each value and spent most of the store doing it: six test
sets, about 320 MB, took 5.0 s with pglz and 2.2 s with LZ4, which keeps them as small (273-275 MB on disk
either way: a mask of zeros and -inf still shrinks) and reads them back faster (``bench/store_test_set.py``,
the arrays sent as bytes, ``judge.lib.binary_rows``). Values already stored keep their compression; new
ones get LZ4. A server built without LZ4 keeps pglz; SQLite, the embedded default, does not compress.
"""

from django.db import migrations

COLUMNS = {
    "problems_testcase": ["inputs", "expected", "fd_expected"],
    "problems_benchmarkcase": ["inputs", "expected"],
    "problems_knownwrongoutcome": ["output"],
}


def lz4_supported(schema_editor) -> bool:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cursor.fetchone()
    return bool(row and row[0])


def compress_with(method: str):
    def change(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "postgresql" or not lz4_supported(schema_editor):
            return
        for table, columns in COLUMNS.items():
            for column in columns:
                schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")

    return change


class Migration(migrations.Migration):
    dependencies = [("problems", "0007_merge_benchmark_and_gated_versions")]

    operations = [migrations.RunPython(compress_with("lz4"), compress_with("pglz"), elidable=False)]
