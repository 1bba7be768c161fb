# pathdiff.awk A B: the module's files (fakes, test rigs and tools/, where
# tools/pathtrace's hook goes, left out) with a block run more often in B
# than in A.
FNR == 1 { f++; next }
{ key = $1; n = $NF }
f == 1 { a[key] = n; next }
n > a[key] {
	split(key, p, ":"); file = p[1]
	sub(/^github.com\/recordsbot\/recordsbot\//, "", file)
	if (file ~ /(slacktest|recordstest|testworld|testbot|bottest|testlog|[a-z]+test|[a-z]+fake|orgsim|sampleorg)\// || file ~ /^tools\//) next
	files[file] = 1
}
END { for (x in files) print x }
