package main

// workloads are the command lines each profiled module's profile comes
// from, run by bash in a directory holding d (issue 14's records), j
// (20,000 JSON objects) and t (a tree of 10,000 files). They hold the
// benchmark cases of issue 14 and, beside them, a broader mix of each
// tool's everyday uses, so that the profile does not favour the benchmark
// at the cost of the rest.
var workloads = map[string][]string{
	"awk": {
		`awk '{s+=$3} END{print s}' d`,
		`awk '{n[$2]+=$3} END{for(k in n) print k, n[k]}' d`,
		`awk '/xray/ {c++} END{print c}' d`,
		`awk '$3 > 50000 {print $1, $3}' d`,
		`awk -F- '{print $2}' d`,
		`awk '{printf "%s %.2f %5d\n", $2, $3/100, NR}' d`,
		`awk '{gsub(/-/, "/"); print}' d`,
		`awk '{print length($0), toupper($2), substr($4, 2, 2), index($0, "x")}' d`,
		`awk '{split($1, a, "-"); m[a[2]]++} END{for(k in m) print k, m[k]}' d`,
		`awk 'BEGIN{for(i=0;i<1000000;i++) s+=i%7; print s}'`,
		`awk 'NR%3==0 {c += length($4 $2)} END{print c}' d`,
		`awk '{if ($2 ~ /^(north|south)$/) a++; else if ($3 < 100) b++} END{print a, b}' d`,
	},
	"sed": {
		`sed -E 's/([0-9]+)-([0-9]+)-([0-9]+)/\3.\2.\1/' d`,
		`sed 's/north/NORTH/g' d`,
		`sed -n '/xray/p' d`,
		`sed '/south/d' d`,
		`sed 'y/abcdef/ABCDEF/' d`,
		`sed -E 's/^([^ ]+) ([a-z]+)/\2 \1/' d`,
		`sed 's/[0-9]/#/2' d`,
		`sed -n '$p' d`,
		`sed '1~5s/ /,/g' d`,
	},
	"jq": {
		`jq -c 'select(.amount > 50000) | .region' j`,
		`jq -c '{r: .region, a: (.amount * 2)}' j`,
		`jq -r '"\(.date) \(.code)"' j`,
		`jq -c 'select(.code | test("^[A-M]"))' j`,
		`jq . j`,
		`jq -s 'group_by(.region) | map({region: .[0].region, total: (map(.amount) | add)})' j`,
		`jq -s 'sort_by(.amount) | .[0:5]' j`,
		`jq -c 'to_entries | map(.key) | length' j`,
		`jq -r '[.date, .region, (.amount | tostring)] | join(",")' j`,
	},
	"coreutils": {
		`sort d`,
		`sort -u d`,
		`sort -n -k3 d`,
		`sort -t- -k2,2n -k3,3n d`,
		`cut -d' ' -f2 d | sort | uniq -c | sort -rn`,
		`grep -cE '[0-9]+ [A-Z][0-9]X' d`,
		`grep -cF -e north -e K7 -e 2024-13 d`,
		`cat d | grep xray | wc -l`,
		`grep -vi north d`,
		`grep -c 'x.*y' d`,
		`grep -o '[A-Z][0-9]' d`,
		`tr a-z A-Z < d`,
		`tr -d 0-9 < d`,
		`wc -w d`,
		`wc -l d`,
		`uniq -c d`,
		`cut -c1-7 d`,
		`tail -1 d`,
		`head -50000 d`,
		`md5sum d`,
	},
	"archive": {
		`tar czf t.tgz t && tar xzf t.tgz -O > /dev/null; rm t.tgz`,
		`tar cf - t | tar tf -`,
		`gzip -c d | gunzip -c`,
		`gzip -9 -c d`,
	},
}
