-- 100,000 rows inserted in one transaction, then grouped and ordered.
create table t(id integer primary key, k text, v real);
begin;
with recursive c(i) as (select 1 union all select i + 1 from c where i < 100000)
insert into t(k, v) select 'k' || (i * 7919 % 1000), (i * 104729 % 100003) / 7.0 from c;
commit;
create index tk on t(k);
select count(*), round(sum(v), 2) from t;
select k, count(*), round(avg(v), 3) from t group by k order by 3 desc limit 3;
select count(*) from t a join t b on a.id = b.id + 1 where a.v > b.v;
