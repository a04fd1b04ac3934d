# a stand-in policy file: the parser only hashes it
