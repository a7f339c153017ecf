print("livepair")
