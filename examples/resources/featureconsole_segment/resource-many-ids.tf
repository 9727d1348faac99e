# More than 1,024 ids. Terraform's range() stops at 1,024 values ("more than 1024 values were
# generated"), so build the ids in chunks of 1,000 and flatten the chunks (here 2 chunks, 2,000 ids),
# or keep them in a file of one id a line:
#   ids = split("\n", trimspace(file("${path.module}/ids.txt")))
resource "featureconsole_segment" "load_test" {
  segment_id = "load_test"
  type       = "id_list"
  ids = flatten([
    for chunk in range(2) : [for i in range(1000) : format("lt_%05d", chunk * 1000 + i)]
  ])
}
